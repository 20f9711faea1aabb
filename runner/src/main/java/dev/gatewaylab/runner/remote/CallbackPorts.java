package dev.gatewaylab.runner.remote;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.rmi.NoSuchObjectException;
import java.rmi.Remote;
import java.rmi.RemoteException;
import java.rmi.server.UnicastRemoteObject;
import java.util.ArrayList;
import java.util.List;

/**
 * Holds the runner's fixed RMI callback ports ({@code --rmi-callback-port P}, JMeter's
 * {@code client.rmi.localport}) for the runner's whole life. JMeter 5.6.3 exports its two
 * callback objects per plan run on P+1 (RemoteThreadsListenerImpl) and P+2
 * (RemoteSampleListenerImpl); Java RMI closes a port's listener once nothing is exported
 * on it, and binds it again at the next export. Between plan runs any outgoing connection
 * could then take the port (P+1 and P+2 are often in the ephemeral range), and the next
 * repetition would fail to export. So one keeper object is exported on each port at
 * start: the listener stays open, JMeter's exports share it (same port, no socket
 * factories of their own: both use RMI's process-wide {@link RmiSockets}, TLS or plain),
 * and a port already taken is found before any load, not mid-run. The listener binds to
 * the runner's callback address only ({@link Rmi#hostname()}).
 */
public final class CallbackPorts implements AutoCloseable {

	/** A callback port is held by another process (or socket). */
	public static final class Taken extends RuntimeException {

		private static final long serialVersionUID = 1L;

		private final int port;

		Taken(int port, Throwable cause) {
			super("the runner's RMI callback port " + port + " is in use on this machine"
					+ (cause == null || cause.getMessage() == null ? "" : " (" + cause.getMessage() + ")"), cause);
			this.port = port;
		}

		public int port() {
			return port;
		}

	}

	/** Nothing to call: it only keeps a port's RMI listener open. */
	interface Keeper extends Remote {

	}

	private static final class KeeperImpl implements Keeper {

	}

	private static CallbackPorts held;

	private final int base;

	private final List<Keeper> keepers = new ArrayList<>();

	private CallbackPorts(int base) {
		this.base = base;
	}

	/**
	 * The ports JMeter 5.6.3's runner listens on for {@code client.rmi.localport=base}.
	 */
	public static int[] ports(int base) {
		return new int[] { base + 1, base + 2 };
	}

	/**
	 * Exports a keeper on each of {@link #ports(int)}; throws {@link Taken} naming the
	 * first port that cannot be bound (and holds none then). Call after
	 * {@code java.rmi.server.hostname} is set: the port's endpoint keeps it.
	 */
	public static CallbackPorts hold(int base) {
		CallbackPorts c = new CallbackPorts(base);
		for (int port : ports(base)) {
			KeeperImpl k = new KeeperImpl();
			try {
				// null socket factories, as JMeter's own exports (its RMI SSL off):
				// the same RMI endpoint, served by RmiSockets
				UnicastRemoteObject.exportObject(k, port, null, null);
			}
			catch (RemoteException e) {
				c.close();
				throw new Taken(port, e.getCause() != null ? e.getCause() : e);
			}
			c.keepers.add(k);
		}
		return c;
	}

	/**
	 * Holds the ports for the rest of this runner's life (idempotent for one base; the
	 * runner uses one).
	 */
	static synchronized void holdForRunner(int base) {
		if (held != null && held.base == base) {
			return;
		}
		CallbackPorts next = hold(base);
		if (held != null) {
			held.close();
		}
		held = next;
	}

	/** Releases the ports (tests; the runner holds them until it exits). */
	@Override
	public void close() {
		for (Keeper k : keepers) {
			try {
				UnicastRemoteObject.unexportObject(k, true);
			}
			catch (NoSuchObjectException e) {
				// already gone
			}
		}
		keepers.clear();
	}

	/**
	 * A warning when a callback port lies in this machine's ephemeral range (Linux
	 * {@code /proc/sys/net/ipv4/ip_local_port_range}): the runner holds its ports once
	 * started, but any outgoing connection may hold one before; null when outside it or
	 * unknown.
	 */
	public static String ephemeralWarning(int base) {
		int[] range = ephemeralRange(Path.of("/proc/sys/net/ipv4/ip_local_port_range"));
		if (range == null) {
			return null;
		}
		for (int p : ports(base)) {
			if (p >= range[0] && p <= range[1]) {
				return "--rmi-callback-port " + base + ": port " + p + " lies in this machine's ephemeral port range "
						+ range[0] + "-" + range[1] + " (ip_local_port_range), where any outgoing connection may "
						+ "take it before the run starts — prefer a base below " + range[0] + ", e.g. 21100";
			}
		}
		return null;
	}

	/** The range in a file formatted as ip_local_port_range ("32768\t60999"), or null. */
	static int[] ephemeralRange(Path file) {
		try {
			String[] parts = Files.readString(file).trim().split("\\s+");
			if (parts.length == 2) {
				return new int[] { Integer.parseInt(parts[0]), Integer.parseInt(parts[1]) };
			}
		}
		catch (IOException | NumberFormatException e) {
			// not Linux, or unreadable: no warning
		}
		return null;
	}

}
