package dev.gatewaylab.gateway.denylist;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

import dev.gatewaylab.gateway.denylist.DenyListLoader.OnError;

/** Load time of a whole file (read, parse, sort, coalesce), one shot per iteration. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = "-Xmx1g")
public class DenyListLoadBenchmark {

	@Param({ ".lab/deny-list/3m", ".lab/deny-list/30m" })
	public String dir;

	@Benchmark
	public DenyList load() {
		return DenyListLoader.load(Path.of(this.dir, "deny-list.txt"), OnError.FAIL);
	}

}
