package dev.gatewaylab.runner.jmeter;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Enumeration;
import java.util.Properties;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import org.apache.jmeter.JMeter;
import org.apache.jmeter.util.JMeterUtils;

/**
 * Embedded JMeter needs a "home" with bin/jmeter.properties, saveservice.properties and
 * the report template. They ship in ApacheJMeter_config.jar; we extract its bin/ once and
 * initialise JMeter like its launcher does.
 */
public final class JMeterHome {

	private static final String VERSION = "5.6.3";

	private static Path initialised;

	private JMeterHome() {
	}

	/**
	 * Default location: {@code $LAB_HOME/.lab/jmeter-home}, else
	 * {@code ~/.gatewaylab/jmeter-home}.
	 */
	public static Path defaultLocation() {
		String labHome = System.getProperty("lab.home", System.getenv("LAB_HOME"));
		if (labHome != null && !labHome.isBlank()) {
			return Path.of(labHome, ".lab", "jmeter-home");
		}
		return Path.of(System.getProperty("user.home"), ".gatewaylab", "jmeter-home");
	}

	public static synchronized Path init(Path home) {
		if (initialised != null) {
			return initialised;
		}
		try {
			extract(home);
			System.setProperty(JMeter.JMETER_NON_GUI, "true");
			JMeterUtils.setJMeterHome(home.toString());
			Path bin = home.resolve("bin");
			JMeterUtils.loadJMeterProperties(bin.resolve("jmeter.properties").toString());
			Properties props = JMeterUtils.getJMeterProperties();
			for (String extra : new String[] { "reportgenerator.properties", "user.properties" }) {
				try (InputStream in = Files.newInputStream(bin.resolve(extra))) {
					props.load(in);
				}
			}
			// Start time stamps are what the reports
			// (and the dashboard) expect to bucket by.
			props.setProperty("sampleresult.timestamp.start", "true");
			props.setProperty("jmeter.save.saveservice.output_format", "csv");
			props.setProperty("jmeter.save.saveservice.print_field_names", "true");
			props.setProperty("jmeter.save.saveservice.assertion_results_failure_message", "true");
			props.setProperty("summariser.name", "");
			JMeterUtils.initLocale();
			initialised = home;
			return home;
		}
		catch (IOException e) {
			throw new UncheckedIOException("cannot prepare the JMeter home in " + home, e);
		}
	}

	/**
	 * A JMeter home as JMeter's own launcher expects it (for {@code jmeter-server}): bin/
	 * extracted, and the lib directories it scans present (empty: every jar is on the
	 * class path already).
	 */
	public static Path prepareForServer(Path home) {
		try {
			extract(home);
			for (String dir : new String[] { "lib/ext", "lib/junit" }) {
				Files.createDirectories(home.resolve(dir));
			}
			return home;
		}
		catch (IOException e) {
			throw new UncheckedIOException("cannot prepare the JMeter home in " + home, e);
		}
	}

	private static void extract(Path home) throws IOException {
		Path marker = home.resolve(".extracted-" + VERSION);
		if (Files.exists(marker)) {
			return;
		}
		URL url = JMeterHome.class.getClassLoader().getResource("bin/jmeter.properties");
		if (url == null) {
			throw new IOException("ApacheJMeter_config.jar (bin/jmeter.properties) is not on the class path");
		}
		JarURLConnection conn = (JarURLConnection) url.openConnection();
		conn.setUseCaches(false);
		try (JarFile jar = conn.getJarFile()) {
			Enumeration<JarEntry> entries = jar.entries();
			while (entries.hasMoreElements()) {
				JarEntry entry = entries.nextElement();
				if (!entry.getName().startsWith("bin/") || entry.isDirectory()) {
					continue;
				}
				Path target = home.resolve(entry.getName()).normalize();
				if (!target.startsWith(home)) {
					continue;
				}
				Files.createDirectories(target.getParent());
				try (InputStream in = jar.getInputStream(entry)) {
					Files.copy(in, target, StandardCopyOption.REPLACE_EXISTING);
				}
			}
		}
		Files.writeString(marker, VERSION);
	}

}
