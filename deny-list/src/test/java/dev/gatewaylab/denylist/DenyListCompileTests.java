package dev.gatewaylab.denylist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.gatewaylab.denylist.DenyListException.Kind;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Loading through the compiled form: reused while it matches the text, compiled anew
 * otherwise.
 */
class DenyListCompileTests {

	@TempDir
	Path dir;

	final List<String> notes = new ArrayList<>();

	DenyList load(Path text, OnError onError) {
		return DenyListLoader.load(text, onError, null, this.notes::add);
	}

	@Test
	void theFirstLoadCompilesBesideTheListAndTheNextReusesIt() throws IOException {
		Path text = Files.writeString(this.dir.resolve("deny.txt"), "10.0.0.0/8\n1.2.3.4\n");
		DenyList first = load(text, OnError.FAIL);
		assertThat(first.compiled()).isTrue();
		assertThat(first.file()).isEqualTo(this.dir.resolve("deny.txt.compiled"));
		DenyList second = load(text, OnError.FAIL);
		assertThat(second.compiled()).as("reused").isFalse();
		assertThat(second.denies(Ipv4.parse("10.9.9.9"))).isTrue();
		assertThat(this.notes).isEmpty();
	}

	@Test
	void aChangedListIsCompiledAnewEvenAtTheSameSize() throws IOException {
		Path text = Files.writeString(this.dir.resolve("deny.txt"), "10.0.0.0/8\n1.2.3.4\n");
		load(text, OnError.FAIL);
		Files.writeString(text, "11.0.0.0/8\n1.2.3.4\n"); // same size, other content
		DenyList changed = load(text, OnError.FAIL);
		assertThat(changed.compiled()).isTrue();
		assertThat(changed.denies(Ipv4.parse("10.9.9.9"))).isFalse();
		assertThat(changed.denies(Ipv4.parse("11.9.9.9"))).isTrue();
		assertThat(this.notes).singleElement().asString().contains("compiled from another version");
	}

	@Test
	void aTruncatedOrForeignCompiledFileIsRebuilt() throws IOException {
		Path text = Files.writeString(this.dir.resolve("deny.txt"), "10.0.0.0/8\n");
		Path compiled = load(text, OnError.FAIL).file();
		byte[] bytes = Files.readAllBytes(compiled);
		Files.write(compiled, Arrays.copyOf(bytes, bytes.length - 1000));
		DenyList rebuilt = load(text, OnError.FAIL);
		assertThat(rebuilt.compiled()).isTrue();
		assertThat(rebuilt.denies(Ipv4.parse("10.1.2.3"))).isTrue();
		Files.writeString(compiled, "not a compiled list");
		assertThat(load(text, OnError.FAIL).compiled()).isTrue();
		assertThat(Files.readAllBytes(compiled)).isEqualTo(bytes);
		assertThat(this.notes).hasSize(2).allMatch((note) -> note.contains("cannot be used"));
	}

	@Test
	void aListCompiledWithBadLinesSkippedIsNotReusedWhenBadLinesMustFail() throws IOException {
		Path text = Files.writeString(this.dir.resolve("deny.txt"), "10.0.0.0/8\nnope\n");
		assertThat(load(text, OnError.SKIP).skippedLines()).isEqualTo(1);
		assertThatExceptionOfType(DenyListException.class).isThrownBy(() -> load(text, OnError.FAIL))
			.withMessage(text + ":2: not an IPv4 address or CIDR (expected a.b.c.d or a.b.c.d/len): 'nope'")
			.satisfies((ex) -> assertThat(ex.sourceBytes()).isEqualTo(Files.size(text)));
	}

	@Test
	void aConfiguredDirectoryHoldsTheCompiledForm() throws IOException {
		Path text = Files.writeString(this.dir.resolve("deny.txt"), "10.0.0.0/8\n");
		Path cache = this.dir.resolve("cache/deny");
		DenyList list = DenyListLoader.load(text, OnError.FAIL, cache, this.notes::add);
		assertThat(list.file()).isEqualTo(cache.resolve("deny.txt.compiled"));
		assertThat(DenyListLoader.compiledPath(text, null)).isEqualTo(this.dir.resolve("deny.txt.compiled"));
	}

	@Test
	void aCompiledFormThatCannotBeWrittenIsAClearErrorAndLeavesNothingBehind() throws IOException {
		Path text = Files.writeString(this.dir.resolve("deny.txt"), "10.0.0.0/8\n");
		Path plainFile = Files.writeString(this.dir.resolve("plain"), "x");
		assertThatExceptionOfType(DenyListException.class)
			.isThrownBy(() -> DenyListLoader.load(text, OnError.FAIL, plainFile.resolve("sub"), this.notes::add))
			.satisfies((ex) -> {
				assertThat(ex.kind()).isEqualTo(Kind.COMPILED);
				assertThat(ex.sourceBytes()).isEqualTo(11);
				assertThat(ex.getMessage()).startsWith(text + ": cannot be compiled into " + plainFile.resolve("sub"));
			});
	}

	@Test
	void aMissingOrUnreadableListIsASourceProblem() {
		assertThatExceptionOfType(DenyListException.class)
			.isThrownBy(() -> load(this.dir.resolve("no.txt"), OnError.FAIL))
			.satisfies((ex) -> assertThat(ex.kind()).isEqualTo(Kind.SOURCE))
			.withMessage(this.dir.resolve("no.txt") + ": no such file");
		assertThatExceptionOfType(DenyListException.class).isThrownBy(() -> load(this.dir, OnError.FAIL))
			.satisfies((ex) -> assertThat(ex.kind()).isEqualTo(Kind.SOURCE))
			.withMessageEndingWith("is a directory, not a rule file");
	}

}
