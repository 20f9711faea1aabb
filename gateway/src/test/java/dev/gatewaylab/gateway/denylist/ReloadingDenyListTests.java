package dev.gatewaylab.gateway.denylist;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.gatewaylab.gateway.clientip.Ipv4;
import dev.gatewaylab.gateway.denylist.DenyListLoader.OnError;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class ReloadingDenyListTests {

	@TempDir
	Path dir;

	final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	Path write(String name, String content, int secondsFromNow) throws IOException {
		Path file = this.dir.resolve(name);
		Files.writeString(file, content);
		// Distinct mtimes whatever the file system's timestamp granularity.
		Files.setLastModifiedTime(file, FileTime.from(Instant.now().plusSeconds(secondsFromNow)));
		return file;
	}

	double gauge(String name) {
		return this.registry.get(name).gauge().value();
	}

	long loads(String result) {
		return this.registry.get("gateway.deny.list.load").tag("result", result).timer().count();
	}

	@Test
	void reloadsAChangedFileOnceItIsStableAndSwapsTheList() throws IOException {
		Path file = write("deny-list.txt", "10.0.0.0/8\n", 0);
		try (ReloadingDenyList denyList = new ReloadingDenyList(file, OnError.FAIL, Duration.ZERO, this.registry)) {
			assertThat(denyList.current().denies(Ipv4.parse("10.1.1.1"))).isTrue();
			assertThat(gauge("gateway.deny.list.rules")).isEqualTo(1);

			// Atomic replace, as docs/deny-list.md recommends: write aside, then rename
			// over.
			Path next = write("next.txt", "11.0.0.0/8\n12.0.0.0/8\n13.0.0.0/8\n", 10);
			Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
			DenyList before = denyList.current();
			denyList.poll(); // change seen: wait one interval for it to be stable
			assertThat(denyList.current()).isSameAs(before);
			denyList.poll();
			assertThat(denyList.current().denies(Ipv4.parse("10.1.1.1"))).isFalse();
			assertThat(denyList.current().denies(Ipv4.parse("12.1.1.1"))).isTrue();
			assertThat(gauge("gateway.deny.list.rules")).isEqualTo(3);
			assertThat(gauge("gateway.deny.list.intervals")).isEqualTo(1);
			assertThat(gauge("gateway.deny.list.last.load.success")).isEqualTo(1);
			assertThat(loads("success")).isEqualTo(2);
			denyList.poll();
			assertThat(loads("success")).as("unchanged file: no reload").isEqualTo(2);
		}
	}

	@Test
	void failedReloadKeepsTheOldListAndSaysSo() throws IOException {
		Path file = write("deny-list.txt", "10.0.0.0/8\n", 0);
		try (ReloadingDenyList denyList = new ReloadingDenyList(file, OnError.FAIL, Duration.ZERO, this.registry)) {
			DenyList good = denyList.current();
			write("deny-list.txt", "11.0.0.0/8\nnot-an-ip\n", 10);
			denyList.poll();
			denyList.poll();
			assertThat(denyList.current()).isSameAs(good);
			assertThat(gauge("gateway.deny.list.last.load.success")).isZero();
			assertThat(loads("failure")).isEqualTo(1);
			denyList.poll();
			assertThat(loads("failure")).as("a broken file is tried once").isEqualTo(1);

			Files.delete(file);
			denyList.poll();
			denyList.poll();
			assertThat(denyList.current()).isSameAs(good);
			assertThat(loads("failure")).isEqualTo(2);

			write("deny-list.txt", "12.0.0.0/8\n", 20);
			denyList.poll();
			denyList.poll();
			assertThat(denyList.current().denies(Ipv4.parse("12.0.0.1"))).isTrue();
			assertThat(gauge("gateway.deny.list.last.load.success")).isEqualTo(1);
		}
	}

	@Test
	void badListAtStartUpFails() throws IOException {
		Path file = write("deny-list.txt", "10.0.0.0/8\n::1\n", 0);
		assertThatExceptionOfType(DenyListException.class)
			.isThrownBy(() -> new ReloadingDenyList(file, OnError.FAIL, Duration.ZERO, this.registry))
			.withMessageStartingWith(file + ":2: IPv6");
	}

	@Test
	void pollsOnItsOwnDaemonThread() throws Exception {
		Path file = write("deny-list.txt", "10.0.0.0/8\n", 0);
		try (ReloadingDenyList denyList = new ReloadingDenyList(file, OnError.FAIL, Duration.ofMillis(20),
				this.registry)) {
			write("deny-list.txt", "11.0.0.0/8\n", 10);
			long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			while (!denyList.current().denies(Ipv4.parse("11.0.0.1"))) {
				assertThat(System.nanoTime()).as("reloaded within 10 s").isLessThan(deadline);
				Thread.sleep(10);
			}
		}
	}

}
