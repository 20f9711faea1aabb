package dev.gatewaylab.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/configuration.md lists every environment variable the project reads, in the table
 * of its reader, and nothing else. Readers: each app's configuration files
 * ({@code <module>/src/main/resources}: the {@code ## <module>} table; study-core's count
 * for study-service and the monolith), the {@code lab} script with the files it sources
 * ({@code lib/*.sh}) and the scripts they name ({@code ## lab}), the other
 * {@code bench/*.sh} ({@code ## measurement scripts}) and the compose files
 * ({@code ## docker compose}). Java sources that read the environment need their
 * variables documented in some table (the runner names the gateway's variables to restart
 * it with them). The repository is read from {@code ..} (the module's parent).
 */
class ConfigurationDocsTests {

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	private static final Path DOC = ROOT.resolve("docs/configuration.md");

	private static final Pattern HEADING = Pattern.compile("^## (.+)$");

	private static final Pattern NAME_IN_FIRST_CELL = Pattern.compile("`([A-Z][A-Z0-9_]*)`");

	private static final Pattern SCRIPT_NAMED_BY_LAB = Pattern.compile("\\$ROOT/([\\w./-]+\\.sh)");

	/**
	 * {@code source "$ROOT/x.sh"}, {@code source "$(dirname "${BASH_SOURCE[0]}")/x.sh"}.
	 */
	private static final Pattern SOURCE = Pattern.compile(
			"^\\s*(?:source|\\.) +\"\\$(?:ROOT|CI_ROOT|\\(dirname \"\\$(?:\\{BASH_SOURCE\\[0]}|0)\"\\))/([\\w./-]+)\"");

	@Test
	void everyVariableAConfigurationFileOrScriptReadsIsInItsReadersTable() {
		Map<String, Set<String>> documented = documented();
		Map<String, Set<String>> missing = new TreeMap<>();
		readsBySection().forEach((section, reads) -> reads.forEach((name, file) -> {
			if (!documented.getOrDefault(section, Set.of()).contains(name)) {
				missing.computeIfAbsent("## " + section, s -> new TreeSet<>()).add(name + " (read by " + file + ")");
			}
		}));
		assertThat(missing).as("add a row for each to docs/configuration.md").isEmpty();
	}

	@Test
	void everyVariableAJavaSourceReadsIsDocumented() {
		Set<String> documented = union(documented());
		Map<String, String> missing = new TreeMap<>(javaReads());
		missing.keySet().removeAll(documented);
		assertThat(missing).as("add a row to docs/configuration.md for each (name=file)").isEmpty();
	}

	@Test
	void everyDocumentedVariableIsReadSomewhere() {
		Set<String> read = new LinkedHashSet<>(javaReads().keySet());
		readsBySection().values().forEach(r -> read.addAll(r.keySet()));
		read.addAll(namesBuiltPerService());
		Map<String, Set<String>> unread = new TreeMap<>();
		documented().forEach((section, names) -> names.stream()
			.filter(n -> !read.contains(n))
			.forEach(n -> unread.computeIfAbsent("## " + section, s -> new TreeSet<>()).add(n)));
		assertThat(unread).as("docs/configuration.md lists variables nothing reads: remove them or fix the name")
			.isEmpty();
	}

	/**
	 * The finders must see what is certainly there, or the two checks above prove
	 * nothing.
	 */
	@Test
	void theFindersSeeKnownReadsInEveryReader() {
		Map<String, Map<String, String>> reads = readsBySection();
		assertThat(reads.get("gateway")).containsKeys("GATEWAY_RESPONSE_TIMEOUT_MS", "PORT");
		assertThat(reads.get("gateway-mvc")).containsKeys("GATEWAY_MVC_VIRTUAL_THREADS", "GATEWAY_LOGGING_MODE");
		assertThat(reads.get("study-service")).containsKeys("STUDY_SERVICE_VIRTUAL_THREADS");
		assertThat(reads.get("monolith")).containsKeys("MONOLITH_BCRYPT_COST");
		assertThat(reads.get("lab")).containsKeys("LAB_START_TIMEOUT", "GATEWAY_JAVA_OPTS", "SCOUTER_AGENT_JAR",
				"ASYNC_PROFILER_LIB", "DENY_LIST_JAVA_OPTS");
		assertThat(reads.get("measurement scripts")).containsKeys("JAVA");
		assertThat(reads.get("docker compose")).containsKeys("LAB_APP_CPUS", "GATEWAY_LOGGING_MODE");
		assertThat(javaReads()).containsKeys("GATEWAY_IO_SELECT_COUNT", "GATEWAY_LOGGING_MODE", "LAB_SCRIPT",
				"LAB_RMI_KEYSTORE_PASSWORD");
		assertThat(namesBuiltPerService()).contains("GATEWAY_JAVA_HOME", "STUDY_SERVICE_JAVA_HOME");
		assertThat(documented()).containsKeys("gateway", "gateway-mvc", "study-service", "monolith", "lab", "runner",
				"measurement scripts", "docker compose");
	}

	/** Section → documented names: backticked names in the first cell of a table row. */
	static Map<String, Set<String>> documented() {
		Map<String, Set<String>> bySection = new LinkedHashMap<>();
		String section = null;
		for (String line : read(DOC).split("\n")) {
			Matcher heading = HEADING.matcher(line);
			if (heading.matches()) {
				section = heading.group(1).trim();
			}
			else if (section != null && line.startsWith("| `")) {
				Matcher name = NAME_IN_FIRST_CELL.matcher(line.substring(0, line.indexOf('|', 1)));
				while (name.find()) {
					bySection.computeIfAbsent(section, s -> new LinkedHashSet<>()).add(name.group(1));
				}
			}
		}
		return bySection;
	}

	/** Section → (name → the file that reads it). */
	static Map<String, Map<String, String>> readsBySection() {
		Map<String, Map<String, String>> reads = new LinkedHashMap<>();
		for (String module : List.of("gateway", "stock", "gateway-mvc", "study-service", "monolith", "study-core", "runner")) {
			List<String> sections = module.equals("study-core") ? List.of("study-service", "monolith")
					: List.of(module);
			for (Path file : files(ROOT.resolve(module + "/src/main/resources"), ".yml", ".yaml", ".properties",
					".xml")) {
				for (String section : sections) {
					add(reads, section, EnvironmentReads.springPlaceholders(read(file)), file);
				}
			}
		}
		List<Path> labScripts = labScripts();
		for (Path script : labScripts) {
			add(reads, "lab", EnvironmentReads.shell(withSourced(script)), script);
		}
		for (Path script : files(ROOT.resolve("bench"), ".sh")) {
			if (!labScripts.contains(script) && !sourcedHelpers().contains(script)) {
				add(reads, "measurement scripts", EnvironmentReads.shell(withSourced(script)), script);
			}
		}
		for (Path compose : files(ROOT, ".yml")) {
			if (compose.getFileName().toString().startsWith("docker-compose")) {
				add(reads, "docker compose", EnvironmentReads.compose(read(compose)), compose);
			}
		}
		return reads;
	}

	/** Name → a main Java source that reads it, in every module. */
	static Map<String, String> javaReads() {
		Map<String, String> reads = new TreeMap<>();
		try (Stream<Path> modules = Files.list(ROOT)) {
			for (Path module : modules.filter(m -> Files.isDirectory(m.resolve("src/main/java"))).toList()) {
				for (Path file : files(module.resolve("src/main/java"), ".java")) {
					EnvironmentReads.java(read(file))
						.forEach(n -> reads.putIfAbsent(n, ROOT.relativize(file).toString()));
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return reads;
	}

	/**
	 * The lab script, and every script it or a file it sources runs (named as
	 * {@code $ROOT/....sh}).
	 */
	static List<Path> labScripts() {
		Path lab = ROOT.resolve("lab");
		List<Path> scripts = new ArrayList<>(List.of(lab));
		Matcher m = SCRIPT_NAMED_BY_LAB.matcher(withSourced(lab));
		while (m.find()) {
			Path script = ROOT.resolve(m.group(1)).normalize();
			if (Files.isRegularFile(script) && !scripts.contains(script) && !sourcedHelpers().contains(script)) {
				scripts.add(script);
			}
		}
		return scripts;
	}

	/**
	 * A script's text with every file it sources in place of the {@code source} line:
	 * what a helper sets counts as set there, what it reads as read there.
	 */
	static String withSourced(Path script) {
		StringBuilder text = new StringBuilder();
		for (String line : read(script).split("\n", -1)) {
			Path sourced = sourced(script, line);
			text.append(sourced != null ? withSourced(sourced) : line).append('\n');
		}
		return text.toString();
	}

	/** Every file a script of the lab, bench/ or ci/ sources. */
	static Set<Path> sourcedHelpers() {
		Set<Path> helpers = new LinkedHashSet<>();
		List<Path> scripts = new ArrayList<>(List.of(ROOT.resolve("lab")));
		scripts.addAll(files(ROOT.resolve("bench"), ".sh"));
		scripts.addAll(files(ROOT.resolve("ci"), ".sh"));
		for (Path script : scripts) {
			for (String line : read(script).split("\n")) {
				Path sourced = sourced(script, line);
				if (sourced != null) {
					helpers.add(sourced);
				}
			}
		}
		return helpers;
	}

	private static Path sourced(Path script, String line) {
		Matcher m = SOURCE.matcher(line);
		if (!m.find()) {
			return null;
		}
		Path base = line.contains("dirname") ? script.getParent() : ROOT;
		Path file = base.resolve(m.group(1)).normalize();
		return Files.isRegularFile(file) ? file : null;
	}

	/**
	 * Names a lab script builds from a service name, for every service of lab.properties.
	 */
	static Set<String> namesBuiltPerService() {
		Set<String> names = new TreeSet<>();
		String services = read(ROOT.resolve("lab.properties")).lines()
			.filter(l -> l.startsWith("services="))
			.findFirst()
			.orElseThrow()
			.substring("services=".length());
		for (Path script : labScripts()) {
			for (String suffix : EnvironmentReads.shellNamesPerService(withSourced(script))) {
				for (String service : services.split(",")) {
					names.add(service.trim().toUpperCase().replace('-', '_') + "_" + suffix);
				}
			}
		}
		return names;
	}

	private static void add(Map<String, Map<String, String>> reads, String section, Set<String> names, Path file) {
		Map<String, String> bySection = reads.computeIfAbsent(section, s -> new TreeMap<>());
		names.forEach(n -> bySection.putIfAbsent(n, ROOT.relativize(file).toString()));
	}

	private static Set<String> union(Map<String, Set<String>> bySection) {
		Set<String> all = new TreeSet<>();
		bySection.values().forEach(all::addAll);
		return all;
	}

	private static List<Path> files(Path dir, String... suffixes) {
		if (!Files.isDirectory(dir)) {
			return List.of();
		}
		int depth = dir.equals(ROOT) ? 1 : Integer.MAX_VALUE;
		try (Stream<Path> walk = Files.walk(dir, depth)) {
			return walk.filter(Files::isRegularFile)
				.filter(f -> Stream.of(suffixes).anyMatch(s -> f.getFileName().toString().endsWith(s)))
				.sorted()
				.toList();
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
