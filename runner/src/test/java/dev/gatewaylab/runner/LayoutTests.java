package dev.gatewaylab.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The runner's layout rule (docs/runner.md), read from its sources: nothing reaches up to
 * the main command, and only it starts a command. No package cycle and the size of files
 * are checked for every module by test-support's ProjectLayoutTests.
 */
class LayoutTests {

	private static final Path SOURCES = Path.of("src/main/java/dev/gatewaylab/runner");

	private static final Pattern IMPORT = Pattern.compile("^import (?:static )?dev\\.gatewaylab\\.runner\\.(\\w+)[.;]",
			Pattern.MULTILINE);

	private static final Set<String> COMMANDS = Set.of("bench", "sweep", "soak", "compare", "engine");

	private static Map<String, Set<String>> dependencies() throws IOException {
		Map<String, Set<String>> deps = new TreeMap<>();
		try (Stream<Path> files = Files.walk(SOURCES)) {
			for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
				Path rel = SOURCES.relativize(f.getParent());
				String pkg = rel.toString().isEmpty() ? "(root)" : rel.toString().replace('/', '.');
				Set<String> set = deps.computeIfAbsent(pkg, k -> new TreeSet<>());
				Matcher m = IMPORT.matcher(Files.readString(f));
				while (m.find()) {
					String target = Character.isUpperCase(m.group(1).charAt(0)) ? "(root)" : m.group(1);
					if (!target.equals(pkg)) {
						set.add(target);
					}
				}
			}
		}
		return deps;
	}

	@Test
	void onlyTheMainCommandImportsACommandPackageAndNothingImportsTheRoot() throws IOException {
		Map<String, Set<String>> dependencies = dependencies();
		assertThat(dependencies).containsKeys("bench", "sweep", "compare", "run", "result", "report");
		dependencies.forEach((pkg, deps) -> {
			if (!pkg.equals("(root)")) {
				assertThat(deps).as(pkg).doesNotContain("(root)").doesNotContainAnyElementsOf(COMMANDS);
			}
		});
	}

}
