package dev.gatewaylab.gateway.denylist;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import dev.gatewaylab.denylist.DenyList;
import dev.gatewaylab.denylist.DenyListException;
import dev.gatewaylab.denylist.DenyListLoader;
import dev.gatewaylab.denylist.Ipv4;
import dev.gatewaylab.denylist.OnError;

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
		try (ReloadingDenyList denyList = new ReloadingDenyList(file, OnError.FAIL, null, Duration.ZERO,
				this.registry)) {
			assertThat(denyList.current().denies(Ipv4.parse("10.1.1.1"))).isTrue();
			assertThat(gauge("gateway.deny.list.rules")).isEqualTo(1);

			// Atomic replace, as docs/deny-list.md recommends:
			// write aside, then rename over.
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
		try (ReloadingDenyList denyList = new ReloadingDenyList(file, OnError.FAIL, null, Duration.ZERO,
				this.registry)) {
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
	void theOldMappingAnswersDuringAndAfterAFailedReload() throws Exception {
		Path file = write("deny-list.txt", "10.0.0.0/8\n", 0);
		CountDownLatch loading = new CountDownLatch(1);
		CountDownLatch proceed = new CountDownLatch(1);
		AtomicInteger loads = new AtomicInteger();
		ReloadingDenyList.Loader loader = () -> {
			if (loads.getAndIncrement() > 0) { // a reload: hold it half-way
				loading.countDown();
				await(proceed);
			}
			return DenyListLoader.load(file, OnError.FAIL);
		};
		try (ReloadingDenyList denyList = new ReloadingDenyList(file, loader, Duration.ZERO, this.registry)) {
			DenyList good = denyList.current();
			write("deny-list.txt", "11.0.0.0/8\nnot-an-ip\n", 10);
			denyList.poll();
			Thread reload = new Thread(denyList::poll);
			reload.start();
			assertThat(loading.await(10, TimeUnit.SECONDS)).isTrue();
			assertThat(denyList.current()).isSameAs(good);
			assertThat(denyList.current().denies(Ipv4.parse("10.1.1.1"))).as("during the reload").isTrue();
			Files.delete(good.file()); // the mapping outlives the compiled file's name
			proceed.countDown();
			reload.join(10_000);
			assertThat(reload.isAlive()).isFalse();
			assertThat(denyList.current()).isSameAs(good);
			assertThat(good.denies(Ipv4.parse("10.1.1.1"))).as("after the failed reload").isTrue();
			assertThat(good.denies(Ipv4.parse("11.1.1.1"))).isFalse();
			assertThat(gauge("gateway.deny.list.last.load.success")).isZero();
		}
	}

	static void await(CountDownLatch latch) {
		try {
			latch.await(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void aReloadReleasesTheReplacedMapping() throws Exception {
		Path file = write("deny-list.txt", "10.0.0.0/8\n", 0);
		try (ReloadingDenyList denyList = new ReloadingDenyList(file, OnError.FAIL, null, Duration.ZERO,
				this.registry)) {
			WeakReference<DenyList> replaced = new WeakReference<>(denyList.current());
			write("deny-list.txt", "11.0.0.0/8\n", 10);
			denyList.poll();
			denyList.poll();
			assertThat(denyList.current().denies(Ipv4.parse("11.0.0.1"))).isTrue();
			// The reload asked for the collection that unmaps it: nothing else holds it.
			long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			while (replaced.get() != null) {
				assertThat(System.nanoTime()).as("released within 10 s").isLessThan(deadline);
				Thread.sleep(10);
			}
			assertThat(gauge("gateway.deny.list.retired.mappings")).isZero();
		}
	}

	@Test
	void badListAtStartUpFails() throws IOException {
		Path file = write("deny-list.txt", "10.0.0.0/8\n::1\n", 0);
		assertThatExceptionOfType(DenyListException.class)
			.isThrownBy(() -> new ReloadingDenyList(file, OnError.FAIL, null, Duration.ZERO, this.registry))
			.withMessageStartingWith(file + ":2: IPv6");
	}

	@Test
	void pollsOnItsOwnDaemonThread() throws Exception {
		Path file = write("deny-list.txt", "10.0.0.0/8\n", 0);
		try (ReloadingDenyList denyList = new ReloadingDenyList(file, OnError.FAIL, null, Duration.ofMillis(20),
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
