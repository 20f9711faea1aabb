package dev.gatewaylab.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The lab's scripts as {@link ConfigurationDocsTests} reads them: {@code ./lab} and what
 * it runs, what every script sources, and the names {@code ./lab} builds per service. The
 * repository is read from {@code ..}.
 */
final class LabScripts {

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	private static final Pattern SCRIPT_NAMED_BY_LAB = Pattern.compile("\\$ROOT/([\\w./-]+\\.sh)");

	/**
	 * {@code source "$ROOT/x.sh"}, {@code source "$(dirname "${BASH_SOURCE[0]}")/x.sh"}.
	 */
	private static final Pattern SOURCE = Pattern.compile(
			"^\\s*(?:source|\\.) +\"\\$(?:ROOT|CI_ROOT|\\(dirname \"\\$(?:\\{BASH_SOURCE\\[0]}|0)\"\\))/([\\w./-]+)\"");

	private LabScripts() {
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

	static List<Path> files(Path dir, String suffix) {
		if (!Files.isDirectory(dir)) {
			return List.of();
		}
		try (Stream<Path> walk = Files.walk(dir)) {
			return walk.filter(Files::isRegularFile)
				.filter(f -> f.getFileName().toString().endsWith(suffix))
				.sorted()
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
