package dev.gatewaylab.gateway.denylist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import dev.gatewaylab.denylist.DenyList;
import dev.gatewaylab.denylist.DenyListLoader;
import dev.gatewaylab.denylist.Ipv4;
import dev.gatewaylab.denylist.OnError;
import dev.gatewaylab.gateway.clientip.ClientIpResolver;

/**
 * What the deny filter does per request behind a trusted proxy, SampleTime: walk
 * {@code X-Forwarded-For} ({@code "203.0.113.7, <client>"} from a trusted peer) into the
 * request's client (the object the filter keeps on the exchange), then look it up. The lists, their loading and the JVM options are those of the
 * deny-list module's {@code DenyListBenchmark} (docs/deny-list.md); the clients are the
 * first 4096 denied rows of client-ips.csv, in file order.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 1, jvmArgsAppend = { "-Xmx256m", "-Xms256m", "-XX:+UseParallelGC" })
public class DenyListFilterBenchmark {

	private static final int MASK = 4095;

	@Param({ ".lab/deny-list/3m", ".lab/deny-list/30m" })
	public String dir;

	private DenyList list;

	private final List<List<String>> hitHeaders = new ArrayList<>();

	private final ClientIpResolver resolver = ClientIpResolver.of("127.0.0.0/8");

	private final long proxy = Ipv4.parse("127.0.0.1");

	private int next;

	@Setup(Level.Trial)
	public void load() throws IOException {
		this.list = DenyListLoader.load(Path.of(this.dir, "deny-list.txt"), OnError.FAIL);
		for (String row : Files.readAllLines(Path.of(this.dir, "client-ips.csv"))) {
			String[] cells = row.split(",");
			if (cells[1].equals("denied") && this.hitHeaders.size() <= MASK) {
				this.hitHeaders.add(List.of("203.0.113.7, " + cells[0]));
			}
		}
		if (this.hitHeaders.size() <= MASK) {
			throw new IllegalStateException(this.dir + "/client-ips.csv needs 4096 denied rows");
		}
	}

	@Benchmark
	public boolean resolveAndLookUp() {
		return this.list.denies(this.resolver.resolve(this.proxy, this.hitHeaders.get(this.next++ & MASK)).ipv4());
	}

}
