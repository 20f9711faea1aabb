package dev.gatewaylab.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Maven modules of the repository as the root pom lists them, and which of them
 * depend on which (main scope: compile or runtime, not test), read from their poms. An
 * app is a module no other module depends on; a library's configuration counts for every
 * app that depends on it, directly or not.
 */
final class RepositoryModules {

	private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");

	private static final Pattern DEPENDENCY = Pattern.compile("<dependency>(.*?)</dependency>", Pattern.DOTALL);

	private static final Pattern ARTIFACT_ID = Pattern.compile("<artifactId>([^<]+)</artifactId>");

	private static final Pattern TEST_SCOPE = Pattern.compile("<scope>\\s*test\\s*</scope>");

	private static final Pattern PARENT = Pattern.compile("<parent>.*?</parent>", Pattern.DOTALL);

	private final Path root;

	/** Module directory (relative, as the root pom names it) → its main-scope modules. */
	private final Map<String, Set<String>> dependencies = new LinkedHashMap<>();

	RepositoryModules(Path root) {
		this.root = root;
		Map<String, String> byArtifact = new LinkedHashMap<>();
		List<String> modules = all(MODULE, read(root.resolve("pom.xml")));
		for (String module : modules) {
			String pom = PARENT.matcher(read(root.resolve(module).resolve("pom.xml"))).replaceFirst("");
			Matcher own = ARTIFACT_ID.matcher(pom);
			if (own.find()) {
				byArtifact.put(own.group(1), module);
			}
		}
		for (String module : modules) {
			Set<String> deps = new LinkedHashSet<>();
			Matcher d = DEPENDENCY.matcher(read(root.resolve(module).resolve("pom.xml")));
			while (d.find()) {
				Matcher artifact = ARTIFACT_ID.matcher(d.group(1));
				if (!TEST_SCOPE.matcher(d.group(1)).find() && artifact.find()
						&& byArtifact.containsKey(artifact.group(1))) {
					deps.add(byArtifact.get(artifact.group(1)));
				}
			}
			deps.remove(module);
			this.dependencies.put(module, deps);
		}
	}

	/** Every module, as the root pom lists it. */
	Set<String> modules() {
		return this.dependencies.keySet();
	}

	/** Modules no other module depends on. */
	Set<String> apps() {
		Set<String> apps = new LinkedHashSet<>(modules());
		this.dependencies.values().forEach(apps::removeAll);
		return apps;
	}

	/**
	 * The apps whose configuration a module's counts for: itself when it is an app, else
	 * every app that depends on it, directly or through other libraries.
	 */
	Set<String> appsOf(String module) {
		Set<String> apps = new LinkedHashSet<>();
		Set<String> seen = new LinkedHashSet<>();
		Deque<String> queue = new ArrayDeque<>(List.of(module));
		while (!queue.isEmpty()) {
			String m = queue.removeFirst();
			if (!seen.add(m)) {
				continue;
			}
			if (apps().contains(m)) {
				apps.add(m);
			}
			this.dependencies.forEach((dependent, deps) -> {
				if (deps.contains(m)) {
					queue.add(dependent);
				}
			});
		}
		return apps;
	}

	/**
	 * The section of docs/configuration.md an app's variables go in: its directory's
	 * name.
	 */
	static String section(String app) {
		return Path.of(app).getFileName().toString();
	}

	Path dir(String module) {
		return this.root.resolve(module);
	}

	private static List<String> all(Pattern p, String text) {
		return p.matcher(text).results().map(r -> r.group(1).trim()).toList();
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
