package dev.gatewaylab.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gateway's default JVM options have one home, {@code java-opts.gateway} of
 * lab.properties: {@code ./lab} and {@code bench/floor.sh} read it, and the compose
 * files, which cannot, repeat it with {@code -XX:+ExitOnOutOfMemoryError} — checked here,
 * with the defaults docs/configuration.md gives. The repository is read from {@code ..}.
 */
class JavaOptionsTests {

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	/** What a container adds to the gateway's options: a JVM out of memory exits. */
	static final String CONTAINER_EXTRA = " -XX:+ExitOnOutOfMemoryError";

	/** {@code ${NAME_JAVA_OPTS:-default}} in a compose file. */
	private static final Pattern COMPOSE_DEFAULT = Pattern.compile("\\$\\{(\\w*JAVA_OPTS):-([^}]*)}");

	/**
	 * {@code GATEWAY_JAVA_OPTS:-} followed by a literal option: a default written out
	 * again.
	 */
	private static final Pattern LITERAL_SHELL_DEFAULT = Pattern.compile("GATEWAY_JAVA_OPTS:--X");

	static String gatewayOptions() {
		return read(ROOT.resolve("lab.properties")).lines()
			.filter(l -> l.startsWith("java-opts.gateway="))
			.map(l -> l.substring("java-opts.gateway=".length()).strip())
			.reduce((first, last) -> last)
			.orElseThrow(() -> new AssertionError("lab.properties has no java-opts.gateway"));
	}

	@Test
	void theGatewaysDefaultOptionsAreInLabProperties() {
		assertThat(gatewayOptions()).contains("-XX:+UseParallelGC", "-Xms");
	}

	/**
	 * Every compose default of a {@code *_JAVA_OPTS} that holds the gateway's collector
	 * (the gateway's, and a service that runs on the gateway's options) is the gateway's.
	 */
	@Test
	void theComposeFilesRepeatTheGatewaysOptions() {
		Map<String, String> gatewayLike = new TreeMap<>();
		for (Path compose : composeFiles()) {
			Matcher m = COMPOSE_DEFAULT.matcher(read(compose));
			while (m.find()) {
				if (m.group(1).equals("GATEWAY_JAVA_OPTS") || m.group(2).contains("-XX:+UseParallelGC")) {
					gatewayLike.put(compose.getFileName() + " " + m.group(1), m.group(2).strip());
				}
			}
		}
		assertThat(gatewayLike).as("compose defaults of the gateway's JVM options").isNotEmpty();
		assertThat(gatewayLike).as("java-opts.gateway of lab.properties plus%s", CONTAINER_EXTRA)
			.allSatisfy(
					(where, options) -> assertThat(options).as(where).isEqualTo(gatewayOptions() + CONTAINER_EXTRA));
	}

	@Test
	void noScriptWritesTheDefaultAgain() {
		List<String> literal = new ArrayList<>();
		List<Path> scripts = new ArrayList<>(List.of(ROOT.resolve("lab")));
		scripts.addAll(files(ROOT.resolve("lib")));
		scripts.addAll(files(ROOT.resolve("bench")));
		scripts.addAll(files(ROOT.resolve("ci")));
		for (Path script : scripts) {
			if (LITERAL_SHELL_DEFAULT.matcher(read(script)).find()) {
				literal.add(ROOT.relativize(script).toString());
			}
		}
		assertThat(literal).as("read it with lab_prop java-opts.gateway (lib/lab-properties.sh)").isEmpty();
		assertThat(read(ROOT.resolve("lib/services.sh"))).contains("lab_prop java-opts.gateway");
		assertThat(read(ROOT.resolve("bench/floor.sh"))).contains("lab_prop java-opts.gateway");
	}

	@Test
	void theConfigurationPageGivesTheseDefaults() {
		List<String> rows = read(ROOT.resolve("docs/configuration.md")).lines()
			.filter(l -> l.startsWith("| `GATEWAY_JAVA_OPTS` |"))
			.toList();
		assertThat(rows).as("the lab's, the measurement scripts' and compose's rows").hasSize(3);
		assertThat(rows).filteredOn(r -> r.contains("`" + gatewayOptions() + "`")).hasSize(2);
		assertThat(rows).filteredOn(r -> r.contains("`" + gatewayOptions() + CONTAINER_EXTRA + "`")).hasSize(1);
	}

	private static List<Path> composeFiles() {
		try (Stream<Path> files = Files.list(ROOT)) {
			return files.filter(f -> f.getFileName().toString().matches("docker-compose.*\\.ya?ml")).sorted().toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static List<Path> files(Path dir) {
		try (Stream<Path> walk = Files.walk(dir)) {
			return walk.filter(f -> f.getFileName().toString().endsWith(".sh")).sorted().toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
