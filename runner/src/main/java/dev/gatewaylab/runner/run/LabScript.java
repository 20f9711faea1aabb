package dev.gatewaylab.runner.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The runner's side of its contract with {@code ./lab}: the script runs the runner with
 * {@code LAB_SCRIPT} set and the arguments untouched; the runner checks its options first
 * and only then asks the script to start the services its targets need ({@code lab up}),
 * stopping at the end what it started ({@code lab down}).
 */
public final class LabScript {

	private final Path script;

	private final Path log;

	public LabScript(Path script, Path log) {
		this.script = script;
		this.log = log;
	}

	/** {@code $LAB_SCRIPT} when it names an executable file, else null. */
	public static Path fromEnvironment() {
		String s = System.getenv("LAB_SCRIPT");
		return s == null || s.isBlank() || !Files.isExecutable(Path.of(s)) ? null : Path.of(s);
	}

	/**
	 * {@code $LAB_SCRIPT}, or a usage error saying what needs it and the ./lab command to
	 * use instead.
	 */
	public static Path require(String what, String example) {
		Path p = fromEnvironment();
		if (p == null) {
			throw new LabException(what + " needs the lab script, but LAB_SCRIPT is not set to an executable file",
					"run it through the lab script: " + example);
		}
		return p;
	}

	/**
	 * Starts the services the local targets need and are not running yet; returns them
	 * (to stop later). Targets with a non-loopback host are someone else's to start.
	 */
	public List<String> startNeeded(Catalog catalog, List<Target> targets) throws IOException, InterruptedException {
		Set<String> needed = new LinkedHashSet<>();
		for (Target t : targets) {
			Catalog.TargetKind kind = catalog.kindOf(t);
			if (t.local() && kind != null && t.port() == catalog.service(kind.service()).port()) {
				needed.addAll(kind.needs());
			}
		}
		List<String> missing = new ArrayList<>();
		for (String s : needed) {
			if (!isUp(catalog.service(s))) {
				missing.add(s);
			}
		}
		if (!missing.isEmpty()) {
			try {
				run(Map.of(), "up", missing);
			}
			catch (IOException | RuntimeException e) {
				stop(missing); // a half-done start leaves nothing running behind
				throw e;
			}
		}
		return missing;
	}

	public void stop(List<String> services) {
		if (services.isEmpty()) {
			return;
		}
		try {
			run(Map.of(), "down", services);
		}
		catch (IOException | RuntimeException e) {
			System.err.println("warning: could not stop " + services + ": " + e.getMessage());
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Runs {@code lab <command> <services>} with extra environment (null values remove a
	 * variable); its output goes to the log when there is one (a restart in the middle of
	 * a run), else to this terminal (start-up progress).
	 */
	public void run(Map<String, String> env, String command, List<String> services)
			throws IOException, InterruptedException {
		List<String> cmd = new ArrayList<>(List.of(script.toString(), command));
		cmd.addAll(services);
		ProcessBuilder pb = new ProcessBuilder(cmd);
		if (log == null) {
			pb.inheritIO();
		}
		else {
			pb.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
		}
		env.forEach((k, v) -> {
			if (v == null) {
				pb.environment().remove(k);
			}
			else {
				pb.environment().put(k, v);
			}
		});
		int rc = pb.start().waitFor();
		if (rc != 0) {
			throw new LabException(String.join(" ", cmd) + " failed with exit code " + rc,
					log == null ? "see the lines above" : "see " + log);
		}
	}

	private static boolean isUp(Catalog.Service s) {
		try (java.net.Socket socket = new java.net.Socket()) {
			socket.connect(new java.net.InetSocketAddress("127.0.0.1", s.port()), 500);
			return true;
		}
		catch (IOException e) {
			return false;
		}
	}

}
