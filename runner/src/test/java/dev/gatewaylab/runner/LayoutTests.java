package dev.gatewaylab.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The runner's layout rules (docs/runner.md), read from its sources: no package cycle,
 * nothing reaches up.
 */
class LayoutTests {

	private static final Path SOURCES = Path.of("src/main/java/dev/gatewaylab/runner");

	private static final Pattern IMPORT = Pattern.compile("^import (?:static )?dev\\.gatewaylab\\.runner\\.(\\w+)[.;]",
			Pattern.MULTILINE);

	private static final Set<String> COMMANDS = Set.of("bench", "sweep", "soak", "compare");

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
		dependencies().forEach((pkg, deps) -> {
			if (!pkg.equals("(root)")) {
				assertThat(deps).as(pkg).doesNotContain("(root)").doesNotContainAnyElementsOf(COMMANDS);
			}
		});
	}

	@Test
	void thereIsNoPackageCycle() throws IOException {
		Map<String, Set<String>> deps = dependencies();
		List<String> cycles = new ArrayList<>();
		for (String start : deps.keySet()) {
			Set<String> seen = new HashSet<>();
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
		assertThat(cycles).as("packages on a cycle, dependencies " + deps).isEmpty();
		assertThat(deps).containsKeys("bench", "sweep", "compare", "run", "result", "report");
	}

	@Test
	void noSourceFileIsOver300Lines() throws IOException {
		try (Stream<Path> files = Files.walk(SOURCES)) {
			for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
				assertThat(Files.readAllLines(f)).as(f.toString()).hasSizeLessThanOrEqualTo(300);
			}
		}
	}

}
