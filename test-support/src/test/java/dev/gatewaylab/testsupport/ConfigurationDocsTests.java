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
 * of its reader, and nothing else. Readers: the configuration files of every module the
 * root pom lists ({@code <module>/src/main/resources}): an app's in its
 * {@code ## <module>} table, a library's in the table of every app that depends on it
 * ({@link RepositoryModules}, from the poms); the {@code lab} script with the files it
 * sources ({@code lib/*.sh}) and the scripts they name ({@code ## lab}, which also lists
 * every name it builds per service), the other {@code bench/*.sh}
 * ({@code ## measurement scripts}), the other scripts under {@code docker/}
 * ({@code ## container scripts}) and the compose files ({@code ## docker compose}). Java
 * sources that read the environment need their variables documented in some table (the
 * runner names the gateway's variables to restart it with them). The repository is read
 * from {@code ..} (the module's parent).
 */
class ConfigurationDocsTests {

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	private static final Path DOC = ROOT.resolve("docs/configuration.md");

	private static final Pattern HEADING = Pattern.compile("^## (.+)$");

	/** The table of the scripts under docker/ that ./lab does not run. */
	static final String CONTAINER_SCRIPTS = "container scripts";

	private static final Pattern NAME_IN_FIRST_CELL = Pattern.compile("`([A-Z][A-Z0-9_]*)`");

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

	/** {@code FLOOR_JAVA_HOME} exists because ./lab builds it for the floor too. */
	@Test
	void everyNameTheLabBuildsPerServiceIsInTheLabsTable() {
		Set<String> missing = new TreeSet<>(LabScripts.namesBuiltPerService());
		missing.removeAll(documented().getOrDefault("lab", Set.of()));
		assertThat(missing).as("add them to the ## lab table of docs/configuration.md").isEmpty();
	}

	@Test
	void everyDocumentedVariableIsReadSomewhere() {
		Set<String> read = new LinkedHashSet<>(javaReads().keySet());
		readsBySection().values().forEach(r -> read.addAll(r.keySet()));
		read.addAll(LabScripts.namesBuiltPerService());
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
		assertThat(reads.get(CONTAINER_SCRIPTS)).containsKeys("SCOUTER_COLLECTOR_HOST", "APP_NAME");
		// a library's configuration counts for the apps that depend on it, not for tests
		RepositoryModules modules = new RepositoryModules(ROOT);
		assertThat(modules.appsOf("servlet-hardening")).contains("study-service", "monolith")
			.doesNotContain("servlet-hardening", "study-core", "test-support");
		assertThat(modules.appsOf("access-log")).contains("gateway");
		assertThat(modules.appsOf("runner")).containsExactly("runner");
		assertThat(javaReads()).containsKeys("GATEWAY_IO_SELECT_COUNT", "GATEWAY_LOGGING_MODE", "LAB_SCRIPT",
				"LAB_RMI_KEYSTORE_PASSWORD");
		assertThat(LabScripts.namesBuiltPerService()).contains("GATEWAY_JAVA_HOME", "STUDY_SERVICE_JAVA_HOME");
		assertThat(documented()).containsKeys("gateway", "gateway-mvc", "stock", "study-service", "monolith", "floor",
				"lab", "runner", "measurement scripts", "container scripts", "docker compose");
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
		RepositoryModules modules = new RepositoryModules(ROOT);
		for (String module : modules.modules()) {
			for (Path file : files(modules.dir(module).resolve("src/main/resources"), ".yml", ".yaml", ".properties",
					".xml")) {
				for (String app : modules.appsOf(module)) {
					add(reads, RepositoryModules.section(app), EnvironmentReads.springPlaceholders(read(file)), file);
				}
			}
		}
		List<Path> labScripts = LabScripts.labScripts();
		for (Path script : labScripts) {
			add(reads, "lab", EnvironmentReads.shell(LabScripts.withSourced(script)), script);
		}
		for (Path script : files(ROOT.resolve("bench"), ".sh")) {
			if (!labScripts.contains(script) && !LabScripts.sourcedHelpers().contains(script)) {
				add(reads, "measurement scripts", EnvironmentReads.shell(LabScripts.withSourced(script)), script);
			}
		}
		for (Path script : files(ROOT.resolve("docker"), ".sh")) {
			if (!labScripts.contains(script) && !LabScripts.sourcedHelpers().contains(script)) {
				add(reads, CONTAINER_SCRIPTS, EnvironmentReads.shell(LabScripts.withSourced(script)), script);
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
