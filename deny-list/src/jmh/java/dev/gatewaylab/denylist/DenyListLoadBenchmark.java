package dev.gatewaylab.denylist;

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

/**
 * Load time of a whole list, one shot per iteration, in a JVM with the gateway's default heap options: {@code compile}
 * reads, parses, sorts and writes the compiled form (a gateway's first start with a text list); {@code open} reuses it
 * (checks the text's CRC-32C and the compiled file, then maps it: every later start).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xmx256m", "-Xms256m", "-XX:+UseParallelGC" })
public class DenyListLoadBenchmark {

	@Param({ ".lab/deny-list/3m", ".lab/deny-list/30m" })
	public String dir;

	@Benchmark
	public DenyList compile() {
		Path text = Path.of(this.dir, "deny-list.txt");
		return DenyListLoader.compile(text, OnError.FAIL, DenyListLoader.compiledPath(text, null), System.nanoTime());
	}

	@Benchmark
	public DenyList open() {
		return DenyListLoader.load(Path.of(this.dir, "deny-list.txt"), OnError.FAIL);
	}

}
