package dev.gatewaylab.denylisttool;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.gatewaylab.denylist.DenyList;
import dev.gatewaylab.denylist.DenyListLoader;
import dev.gatewaylab.denylist.Ipv4;
import dev.gatewaylab.denylist.OnError;

import static org.assertj.core.api.Assertions.assertThat;

class DenyListToolTests {

	@TempDir
	Path dir;

	final ByteArrayOutputStream out = new ByteArrayOutputStream();

	final ByteArrayOutputStream err = new ByteArrayOutputStream();

	int run(String... args) {
		return new DenyListTool(new PrintStream(this.out, true), new PrintStream(this.err, true)).run(args);
	}

	String err() {
		return this.err.toString(StandardCharsets.UTF_8);
	}

	@Test
	void writesALoadableListAndClientsThatAgreeWithIt() throws IOException {
		Path a = this.dir.resolve("a");
		assertThat(run("generate", "--rules", "20000", "--seed", "7", "--out", a.toString(), "--clients", "2000"))
			.isZero();
		DenyList list = DenyListLoader.load(a.resolve("deny-list.txt"), OnError.FAIL);
		assertThat(list.rules()).isEqualTo(20_000);
		assertThat(list.intervals()).as("mostly not coalescible").isGreaterThan(19_000);
		List<String> clients = Files.readAllLines(a.resolve("client-ips.csv"));
		assertThat(clients.get(0)).isEqualTo("clientIp,expected");
		assertThat(clients).hasSize(2001);
		long denied = 0;
		for (String row : clients.subList(1, clients.size())) {
			String[] cells = row.split(",");
			boolean deny = cells[1].equals("denied");
			assertThat(list.denies(Ipv4.parse(cells[0]))).as(row).isEqualTo(deny);
			denied += deny ? 1 : 0;
		}
		assertThat(denied).isBetween(800L, 1200L);
	}

	@Test
	void aSmallerListIsTheStartOfALargerOneWithTheSameSeed() throws IOException {
		// What the deny-list experiment relies on (3 M and 30 M rules, seed 42:
		// both have 24 short prefixes, as 1,000 and 20,000 rules both have one):
		// a client the larger list allows, the smaller one allows too.
		Path small = this.dir.resolve("small");
		Path large = this.dir.resolve("large");
		run("generate", "--rules", "1000", "--seed", "42", "--out", small.toString());
		run("generate", "--rules", "20000", "--seed", "42", "--out", large.toString(), "--clients", "3000");
		List<String> smallRules = Files.readAllLines(small.resolve("deny-list.txt"));
		List<String> largeRules = Files.readAllLines(large.resolve("deny-list.txt"));
		assertThat(largeRules.subList(1, smallRules.size())).isEqualTo(smallRules.subList(1, smallRules.size()));
		DenyList smallList = DenyListLoader.load(small.resolve("deny-list.txt"), OnError.FAIL);
		for (String row : Files.readAllLines(large.resolve("client-ips.csv"))) {
			if (row.endsWith(",allowed")) {
				assertThat(smallList.denies(Ipv4.parse(row.substring(0, row.indexOf(','))))).as(row).isFalse();
			}
		}
	}

	@Test
	void sameSeedSameFilesOtherSeedOtherFiles() throws IOException {
		run("generate", "--rules", "5000", "--seed", "3", "--out", this.dir.resolve("a").toString());
		run("generate", "--rules", "5000", "--seed", "3", "--out", this.dir.resolve("b").toString());
		run("generate", "--rules", "5000", "--seed", "4", "--out", this.dir.resolve("c").toString());
		for (String name : List.of("deny-list.txt", "client-ips.csv")) {
			assertThat(Files.mismatch(this.dir.resolve("a").resolve(name), this.dir.resolve("b").resolve(name)))
				.isEqualTo(-1);
			assertThat(Files.mismatch(this.dir.resolve("a").resolve(name), this.dir.resolve("c").resolve(name)))
				.isNotEqualTo(-1);
		}
	}

	@Test
	void badCommandLinesExitTwoNamingProblemAndFix() {
		assertThat(run("generate", "--rules", "lots")).isEqualTo(2);
		assertThat(err()).contains("--rules: 'lots' is not a whole number, e.g. --rules 3000000");
		assertThat(run("generate", "--rules", "0")).isEqualTo(2);
		assertThat(err()).contains("--rules: 0 is out of range: use 1 to 200,000,000");
		assertThat(run("generate", "--seed")).isEqualTo(2);
		assertThat(err()).contains("--seed needs a value, e.g. --seed 42");
		assertThat(run("generate", "--colour", "red")).isEqualTo(2);
		assertThat(err()).contains("unknown option '--colour'");
		assertThat(run("generate", "--denied-share", "2")).isEqualTo(2);
		assertThat(run("frobnicate")).isEqualTo(2);
		assertThat(err()).contains("unknown command 'frobnicate'").contains("--help");
		assertThat(run("load")).isEqualTo(2);
		assertThat(run("--help")).isZero();
		assertThat(this.out.toString(StandardCharsets.UTF_8)).contains("generate [--rules N]");
	}

	@Test
	void compileWritesTheCompiledFormThatLoadThenReuses() throws IOException {
		Path file = Files.writeString(this.dir.resolve("rules.txt"), "10.0.0.0/8\n1.2.3.4\n");
		assertThat(run("compile", file.toString())).isZero();
		Path compiled = this.dir.resolve("rules.txt.compiled");
		assertThat(compiled).exists();
		assertThat(this.out.toString(StandardCharsets.UTF_8)).startsWith("compiled " + file)
			.contains("2 rules -> 2 intervals");
		long written = Files.getLastModifiedTime(compiled).toMillis();
		this.out.reset();
		assertThat(run("load", file.toString())).isZero();
		assertThat(this.out.toString(StandardCharsets.UTF_8)).startsWith("loaded " + file)
			.contains("mapped off the heap from " + compiled);
		assertThat(Files.getLastModifiedTime(compiled).toMillis()).as("reused, not rewritten").isEqualTo(written);
		Path elsewhere = this.dir.resolve("cache");
		assertThat(run("compile", file.toString(), "--compiled-dir", elsewhere.toString())).isZero();
		assertThat(elsewhere.resolve("rules.txt.compiled")).exists();
	}

	@Test
	void aListThatCannotBeCompiledExitsOneNamingTheProblemAndTheFix() throws IOException {
		Path file = Files.writeString(this.dir.resolve("rules.txt"), "10.0.0.0/8\n");
		Path notADirectory = Files.writeString(this.dir.resolve("plain-file"), "x");
		assertThat(run("compile", file.toString(), "--compiled-dir", notADirectory.resolve("sub").toString()))
			.isEqualTo(1);
		assertThat(err()).startsWith("deny-list: " + file + ": cannot be compiled into " + notADirectory.resolve("sub"))
			.contains("pass --compiled-dir DIR")
			.doesNotContain("Exception");
		assertThat(run("compile", this.dir.resolve("none.txt").toString())).isEqualTo(1);
		assertThat(err()).contains("none.txt: no such file — check the path");
	}

	@Test
	void loadReportsFiguresOrTheBadLine() throws IOException {
		Path file = Files.writeString(this.dir.resolve("rules.txt"), "10.0.0.0/8\n1.2.3.4\n");
		assertThat(run("load", file.toString())).isZero();
		assertThat(this.out.toString(StandardCharsets.UTF_8)).contains("2 rules -> 2 intervals");
		Files.writeString(file, "10.0.0.0/8\nnope\n");
		assertThat(run("load", file.toString())).isEqualTo(1);
		assertThat(err()).contains(file + ":2: not an IPv4 address");
		assertThat(run("load", file.toString(), "--on-error", "skip")).isZero();
	}

}
