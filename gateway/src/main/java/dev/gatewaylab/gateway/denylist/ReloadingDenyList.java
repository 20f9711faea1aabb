package dev.gatewaylab.gateway.denylist;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.gatewaylab.denylist.DenyList;
import dev.gatewaylab.denylist.DenyListException;
import dev.gatewaylab.denylist.DenyListLoader;
import dev.gatewaylab.denylist.OnError;

/**
 * The current {@link DenyList}, loaded at start-up (a failure stops the gateway) and
 * reloaded when the file changes: a daemon thread polls the file's modification time and
 * size every {@code reloadInterval} and reloads once they have been stable for one
 * interval (so a file still being written is not read half-way). The new list is compiled
 * aside and swapped in with one volatile write; a failed reload keeps the old list, logs
 * why and counts it.
 * <p>
 * A replaced list's mapping is released by the garbage collector once no lookup still
 * holds the list (Java 17 has no safe explicit unmap: unmapping under a running lookup
 * would crash the JVM). So that this happens at once rather than at the next full
 * collection, a successful reload asks for one collection; until the mapping is gone the
 * replaced list counts in {@code gateway_deny_list_retired_mappings}.
 */
final class ReloadingDenyList implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(ReloadingDenyList.class);

	/** Loads the list (the text file through its compiled form). */
	@FunctionalInterface
	interface Loader {

		DenyList load();

	}

	private final Path file;

	private final Loader loader;

	/** Replaced lists whose mapping the garbage collector has not released yet. */
	private final ConcurrentLinkedQueue<WeakReference<DenyList>> retired = new ConcurrentLinkedQueue<>();

	private final Timer loadSuccess;

	private final Timer loadFailure;

	private final AtomicInteger lastLoadSucceeded = new AtomicInteger(1);

	private final Counter denied;

	private final ScheduledExecutorService poller;

	private volatile DenyList current;

	/**
	 * False while an operator (or the lab's experiment) has the filter bypassed; the
	 * rules stay loaded.
	 */
	private volatile boolean enforced = true;

	private Stamp loaded;

	private Stamp seen;

	ReloadingDenyList(Path file, OnError onError, Path compiledDir, Duration reloadInterval, MeterRegistry registry) {
		this(file, () -> DenyListLoader.load(file, onError, compiledDir, logger::info), reloadInterval, registry);
	}

	ReloadingDenyList(Path file, Loader loader, Duration reloadInterval, MeterRegistry registry) {
		this.file = file;
		this.loader = loader;
		this.loadSuccess = Timer.builder("gateway.deny.list.load")
			.tag("result", "success")
			.description("Deny-list loads (start-up and reloads) by result")
			.register(registry);
		this.loadFailure = Timer.builder("gateway.deny.list.load")
			.tag("result", "failure")
			.description("Deny-list loads (start-up and reloads) by result")
			.register(registry);
		this.denied = Counter.builder("gateway.deny.list.denied")
			.description("Requests answered 403 by the deny list")
			.register(registry);
		Gauge.builder("gateway.deny.list.rules", this, (self) -> self.current.rules())
			.description("Rules in the deny list in use (before coalescing)")
			.register(registry);
		Gauge.builder("gateway.deny.list.intervals", this, (self) -> self.current.intervals())
			.description("Disjoint address intervals the rules coalesced into")
			.register(registry);
		Gauge.builder("gateway.deny.list.skipped.lines", this, (self) -> self.current.skippedLines())
			.description("Bad lines skipped in the deny list in use (GATEWAY_DENY_LIST_ON_ERROR=skip)")
			.register(registry);
		Gauge.builder("gateway.deny.list.memory", this, (self) -> self.current.memoryBytes())
			.baseUnit("bytes")
			.description("Bytes of the deny list in use, mapped off the heap from its compiled file")
			.register(registry);
		Gauge.builder("gateway.deny.list.retired.mappings", this, ReloadingDenyList::retiredMappings)
			.description("Replaced deny lists whose mapping is not released yet (the garbage collector releases it)")
			.register(registry);
		Gauge.builder("gateway.deny.list.load.duration", this, (self) -> self.current.loadNanos() / 1e9)
			.baseUnit("seconds")
			.description("How long the deny list in use took to load")
			.register(registry);
		Gauge.builder("gateway.deny.list.enforced", this, (self) -> self.enforced ? 1 : 0)
			.description("1 while the deny list is enforced, 0 while it is bypassed through the management port")
			.register(registry);
		Gauge.builder("gateway.deny.list.last.load.success", this.lastLoadSucceeded, AtomicInteger::get)
			.description("1 if the last load or reload succeeded, 0 if it failed (the previous list stays in use)")
			.register(registry);

		this.current = DenyList.EMPTY;
		Stamp stamp = stamp();
		load(); // throws: the gateway does not start on a bad list
		this.loaded = stamp;
		this.seen = stamp;
		if (reloadInterval.isZero() || reloadInterval.isNegative()) {
			this.poller = null;
		}
		else {
			this.poller = Executors.newSingleThreadScheduledExecutor((task) -> {
				Thread thread = new Thread(task, "deny-list-reload");
				thread.setDaemon(true);
				return thread;
			});
			long millis = reloadInterval.toMillis();
			this.poller.scheduleWithFixedDelay(this::poll, millis, millis, TimeUnit.MILLISECONDS);
		}
	}

	DenyList current() {
		return this.current;
	}

	boolean enforced() {
		return this.enforced;
	}

	void enforce(boolean enforced) {
		if (enforced != this.enforced) {
			logger.warn("Deny list {} ({}): {}", enforced ? "enforced again" : "BYPASSED", this.file,
					enforced ? "denied clients get 403 again" : "every client passes until it is enforced again");
		}
		this.enforced = enforced;
	}

	Path file() {
		return this.file;
	}

	boolean lastLoadSucceeded() {
		return this.lastLoadSucceeded.get() == 1;
	}

	void countDenied() {
		this.denied.increment();
	}

	/** Loads the file now; on failure keeps the list in use and rethrows. */
	DenyList load() {
		long start = System.nanoTime();
		try {
			DenyList list = this.loader.load();
			this.loadSuccess.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
			this.lastLoadSucceeded.set(1);
			if (this.current != DenyList.EMPTY) {
				this.retired.add(new WeakReference<>(this.current));
			}
			this.current = list;
			logger.info("Deny list {}: {}", this.file, list);
			for (String line : list.skipped()) {
				logger.warn("Deny list: skipped {}", line);
			}
			if (list.skippedLines() > list.skipped().size()) {
				logger.warn("Deny list: ... and {} more bad lines skipped",
						list.skippedLines() - list.skipped().size());
			}
			return list;
		}
		catch (DenyListException | OutOfMemoryError ex) {
			this.loadFailure.record(System.nanoTime() - start, TimeUnit.NANOSECONDS);
			this.lastLoadSucceeded.set(0);
			throw ex;
		}
	}

	/**
	 * One polling step: reload once a change has been stable for one interval.
	 * Package-private for tests.
	 */
	void poll() {
		try {
			Stamp stamp = stamp();
			if (!stamp.equals(this.loaded) && stamp.equals(this.seen)) {
				this.loaded = stamp; // a broken file is tried once, not on every poll
				try {
					load();
					releaseRetired();
				}
				catch (DenyListException ex) {
					logger.error("Deny list reload failed, still using the previous list ({}): {} — {}", this.current,
							ex.getMessage(), DenyListFailureAnalyzer.fix(ex));
				}
			}
			this.seen = stamp;
		}
		catch (RuntimeException | OutOfMemoryError ex) {
			// Never let an exception end the scheduled task.
			this.lastLoadSucceeded.set(0);
			logger.error("Deny list reload failed, still using the previous list: {}", ex.toString());
		}
	}

	/**
	 * Asks for the collection that releases the replaced lists' mappings (a hint: with
	 * {@code -XX:+DisableExplicitGC} the next full collection does it).
	 */
	private void releaseRetired() {
		if (retiredMappings() > 0) {
			System.gc();
		}
	}

	int retiredMappings() {
		this.retired.removeIf((ref) -> ref.get() == null);
		return this.retired.size();
	}

	private Stamp stamp() {
		try {
			BasicFileAttributes attributes = Files.readAttributes(this.file, BasicFileAttributes.class);
			return new Stamp(attributes.lastModifiedTime().toMillis(), attributes.size(), attributes.fileKey());
		}
		catch (IOException ex) {
			return new Stamp(-1, -1, null); // missing: the load will say so
		}
	}

	@Override
	public void close() {
		if (this.poller != null) {
			this.poller.shutdownNow();
		}
	}

	/**
	 * What identifies a version of the file without reading it (the inode catches an
	 * atomic rename).
	 */
	private record Stamp(long modified, long size, Object fileKey) {
	}

}
