package dev.gatewaylab.runner.bench;

import dev.gatewaylab.runner.experiment.Tuning;
import dev.gatewaylab.runner.process.ProcSampler;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.jmeter.util.JMeterUtils;

/** The machine and software a run measured on (run.json "environment"). */
final class Environment {

	private Environment() {
	}

	static Map<String, Object> probe(Instant started, Path labHome, List<String> remoteHosts,
			Iterable<String> services) {
		Map<String, Object> env = new LinkedHashMap<>();
		env.put("started", started.toString());
		env.put("finished", Instant.now().toString());
		env.put("wall_s", Duration.between(started, Instant.now()).toSeconds());
		try {
			env.put("host", InetAddress.getLocalHost().getHostName());
		}
		catch (IOException e) {
			env.put("host", "unknown");
		}
		env.put("cores", Runtime.getRuntime().availableProcessors());
		env.put("memory_total_mib", totalMemoryMiB());
		env.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
				+ System.getProperty("os.arch") + osRelease());
		env.put("jdk", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version"));
		env.put("runner_max_heap_mib", Runtime.getRuntime().maxMemory() / (1024 * 1024));
		env.put("apps_jdk", appJdks(labHome, services));
		env.put("jmeter", JMeterUtils.getJMeterVersion());
		String v = Environment.class.getPackage().getImplementationVersion();
		env.put("runner", v == null ? "dev" : v);
		env.put("lab_home", labHome.toString());
		env.put("remote_engines", remoteHosts.isEmpty() ? "none (in-process engine)" : remoteHosts);
		return env;
	}

	/**
	 * Service → the JDK its running process uses (LAB_JAVA_HOME, chosen by ./lab), from
	 * /proc/<pid>/exe.
	 */
	private static Map<String, String> appJdks(Path labHome, Iterable<String> services) {
		Map<String, String> jdks = new LinkedHashMap<>();
		for (String service : services) {
			Long pid = ProcSampler.pidFromFile(labHome, service);
			if (pid == null) {
				continue;
			}
			try {
				Path home = Files.readSymbolicLink(Path.of("/proc/" + pid + "/exe")).getParent().getParent();
				jdks.put(service, Tuning.javaVersion(home).orElse("?") + " (" + home + ")");
			}
			catch (IOException | RuntimeException e) {
				jdks.put(service, "unknown");
			}
		}
		return jdks;
	}

	private static long totalMemoryMiB() {
		try {
			for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
				if (line.startsWith("MemTotal:")) {
					return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
				}
			}
		}
		catch (IOException | RuntimeException e) {
			// not Linux
		}
		return -1;
	}

	private static String osRelease() {
		try {
			for (String line : Files.readAllLines(Path.of("/etc/os-release"))) {
				if (line.startsWith("PRETTY_NAME=")) {
					return " (" + line.substring(12).replace("\"", "") + ")";
				}
			}
		}
		catch (IOException e) {
			// not Linux
		}
		return "";
	}

}
