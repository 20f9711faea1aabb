package dev.gatewaylab.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
import static org.assertj.core.api.Assertions.entry;

/**
 * Layout rules for every Java source of the repository (every module, main and test, and
 * the measurement programs under {@code bench/}): no file over 300 lines; in the main
 * sources, no package of more than 20 classes (Java files directly in its directory) and
 * no cycle between the project's packages ({@code dev.gatewaylab.*}), within a module or
 * across modules. The repository is read from {@code ..} (the module's parent); build
 * output, the lab's state and results are not sources.
 */
class ProjectLayoutTests {

	static final int MAX_LINES = 300;

	static final int MAX_LAB_LINES = 400;
	static final int MAX_CLASSES = 20;

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	private static final Set<String> NOT_SOURCES = Set.of("target", ".lab", "results", ".git", "node_modules", ".mvn");

	private static final Pattern PACKAGE = Pattern.compile("^package (dev\\.gatewaylab(?:\\.\\w+)*);",
			Pattern.MULTILINE);

	private static final Pattern IMPORT = Pattern
		.compile("^import (?:static )?(dev\\.gatewaylab(?:\\.[a-z_][a-z0-9_]*)*)\\.[A-Z*]", Pattern.MULTILINE);

	@Test
	void noSourceFileIsOver300Lines() {
		assertThat(oversized(ROOT)).as("split these by job (files and their line counts)").isEmpty();
	}

	/**
	 * {@code ./lab} holds the commands and what every part shares; the parts (services,
	 * APM, tracing, load engines, the AOT cache) are sourced from {@code lib/*.sh}.
	 */
	@Test
	void theLabScriptStaysWithin400Lines() {
		assertThat(readAllLines(ROOT.resolve("lab"))).as("lines of ./lab: move a part to lib/ as lib/services.sh is")
			.hasSizeLessThanOrEqualTo(MAX_LAB_LINES);
	}

	@Test
	void noMainPackageHoldsMoreThan20Classes() {
		assertThat(crowded(ROOT)).as("split these by concern (packages and their class counts)").isEmpty();
	}

	@Test
	void noCycleBetweenTheProjectsPackages() {
		Map<String, Set<String>> deps = packageDependencies(ROOT);
		assertThat(deps).as("the main sources of the project's modules")
			.containsKeys("dev.gatewaylab.gateway", "dev.gatewaylab.runner");
		assertThat(cycles(deps)).as("packages on a cycle, dependencies " + deps).isEmpty();
	}

	/**
	 * A reference page stays readable: every {@code docs/*.md} at most 500 lines, the
	 * README at most 150. Dated runs go to the pages under {@code docs/history/}, which
	 * have no limit.
	 */
	@Test
	void noReferencePageIsOver500LinesNorTheReadmeOver150() throws IOException {
		Map<String, Integer> over = new TreeMap<>();
		List<Path> pages;
		try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
			pages = files.filter((f) -> f.toString().endsWith(".md") && Files.isRegularFile(f)).sorted().toList();
		}
		for (Path page : pages) {
			int lines = readAllLines(page).size();
			if (lines > 500) {
				over.put(ROOT.relativize(page).toString(), lines);
			}
		}
		int readme = readAllLines(ROOT.resolve("README.md")).size();
		if (readme > 150) {
			over.put("README.md", readme);
		}
		assertThat(pages).as("the reference pages under docs/").isNotEmpty();
		assertThat(over).as("move dated runs to docs/history/ or split the page by topic (pages and their line counts)")
			.isEmpty();
	}

	@Test
	void theChecksFindWhatTheyAreFor() throws IOException {
		Path repo = Files.createTempDirectory("layout");
		try {
			Path a = repo.resolve("m/src/main/java/dev/gatewaylab/m/a/A.java");
			Path b = repo.resolve("m/src/main/java/dev/gatewaylab/m/b/B.java");
			Path c = repo.resolve("m/src/main/java/dev/gatewaylab/m/c/C.java");
			write(a, "package dev.gatewaylab.m.a;\nimport dev.gatewaylab.m.b.B;\n");
			write(b, "package dev.gatewaylab.m.b;\nimport static dev.gatewaylab.m.a.A.run;\n");
			write(c, "package dev.gatewaylab.m.c;\nimport dev.gatewaylab.m.a.A;\n" + "\n".repeat(MAX_LINES));
			write(repo.resolve("m/target/generated/Big.java"), "\n".repeat(MAX_LINES + 10));
			write(repo.resolve("m/src/test/java/dev/gatewaylab/m/a/ATests.java"),
					"package dev.gatewaylab.m.a;\nimport dev.gatewaylab.m.c.C;\n");
			assertThat(cycles(packageDependencies(repo))).containsExactlyInAnyOrder("dev.gatewaylab.m.a",
					"dev.gatewaylab.m.b");
			assertThat(oversized(repo)).containsOnlyKeys(repo.relativize(c).toString());
			Path big = repo.resolve("m/src/main/java/dev/gatewaylab/m/big");
			for (int i = 0; i <= MAX_CLASSES; i++) {
				write(big.resolve("B" + i + ".java"), "package dev.gatewaylab.m.big;\n");
				write(repo.resolve("m/src/test/java/dev/gatewaylab/m/a/A" + i + "Tests.java"),
						"package dev.gatewaylab.m.a;\n");
			}
			for (int i = 1; i < MAX_CLASSES; i++) {
				write(a.resolveSibling("A" + i + ".java"), "package dev.gatewaylab.m.a;\n");
			}
			assertThat(crowded(repo)).as("main package a holds 20 classes; big 21; tests do not count")
				.containsExactly(entry(repo.relativize(big).toString(), MAX_CLASSES + 1));
			write(b, "package dev.gatewaylab.m.b;\n");
			assertThat(cycles(packageDependencies(repo))).isEmpty();
		}
		finally {
			try (Stream<Path> files = Files.walk(repo)) {
				files.sorted((x, y) -> y.compareTo(x)).forEach(p -> p.toFile().delete());
			}
		}
	}

	/**
	 * Files over {@link #MAX_LINES} lines, relative to the repository, with their count.
	 */
	static Map<String, Integer> oversized(Path repo) {
		Map<String, Integer> over = new TreeMap<>();
		for (Path f : javaSources(repo)) {
			int lines = readAllLines(f).size();
			if (lines > MAX_LINES) {
				over.put(repo.relativize(f).toString(), lines);
			}
		}
		return over;
	}

	/**
	 * Main-source packages of more than {@link #MAX_CLASSES} classes (Java files directly
	 * in the package's directory), by directory relative to the repository, with their
	 * count.
	 */
	static Map<String, Integer> crowded(Path repo) {
		Map<String, Integer> classes = new TreeMap<>();
		for (Path f : javaSources(repo)) {
			if (f.toString().contains("/src/main/java/")) {
				classes.merge(repo.relativize(f.getParent()).toString(), 1, Integer::sum);
			}
		}
		classes.values().removeIf((count) -> count <= MAX_CLASSES);
		return classes;
	}

	/**
	 * The project's packages in main sources, each with the project packages it imports.
	 */
	static Map<String, Set<String>> packageDependencies(Path repo) {
		Map<String, Set<String>> deps = new TreeMap<>();
		for (Path f : javaSources(repo)) {
			if (!f.toString().contains("/src/main/java/")) {
				continue;
			}
			String text = readString(f);
			Matcher p = PACKAGE.matcher(text);
			if (!p.find()) {
				continue;
			}
			String pkg = p.group(1);
			Set<String> set = deps.computeIfAbsent(pkg, k -> new TreeSet<>());
			Matcher m = IMPORT.matcher(text);
			while (m.find()) {
				if (!m.group(1).equals(pkg)) {
					set.add(m.group(1));
				}
			}
		}
		return deps;
	}

	/** Every package from which a path of imports leads back to itself. */
	static List<String> cycles(Map<String, Set<String>> deps) {
		List<String> cycles = new ArrayList<>();
		for (String start : deps.keySet()) {
			Set<String> seen = new TreeSet<>();
			List<String> todo = new ArrayList<>(deps.get(start));
			while (!todo.isEmpty()) {
				String next = todo.remove(todo.size() - 1);
				if (next.equals(start)) {
					cycles.add(start);
					break;
				}
				if (seen.add(next)) {
					todo.addAll(deps.getOrDefault(next, Set.of()));
				}
			}
		}
		return cycles;
	}

	private static List<Path> javaSources(Path repo) {
		try (Stream<Path> files = Files.walk(repo)) {
			return files.filter((f) -> f.toString().endsWith(".java"))
				.filter((f) -> isSource(repo.relativize(f)))
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static boolean isSource(Path relative) {
		for (Path part : relative) {
			if (NOT_SOURCES.contains(part.toString())) {
				return false;
			}
		}
		return true;
	}

	private static void write(Path file, String text) throws IOException {
		Files.createDirectories(file.getParent());
		Files.writeString(file, text);
	}

	private static List<String> readAllLines(Path file) {
		try {
			return Files.readAllLines(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String readString(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
