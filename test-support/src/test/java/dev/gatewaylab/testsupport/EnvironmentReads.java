package dev.gatewaylab.testsupport;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The environment variables a source file reads, by the kind of file. Each finder is
 * deliberately plain (regular expressions and a small shell lexer): it reads what the
 * project writes, not every language's every form.
 */
final class EnvironmentReads {

	private static final Pattern NAME = Pattern.compile("[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*");

	/** {@code ${NAME:default}}, {@code ${NAME}} and Log4j2's {@code ${env:NAME}}. */
	private static final Pattern SPRING_PLACEHOLDER = Pattern.compile("\\$\\{(?:env:)?(" + NAME + ")(?=[:}])");

	/**
	 * {@code ${NAME}}, {@code ${NAME:-default}}, {@code ${NAME-x}}, {@code ${NAME:?x}}.
	 */
	private static final Pattern COMPOSE_INTERPOLATION = Pattern.compile("(?<!\\$)\\$\\{(" + NAME + ")(?=[:}?-])");

	/** An environment key without a value: passed through from the shell. */
	private static final Pattern COMPOSE_PASS_THROUGH = Pattern.compile("(?m)^\\s+(" + NAME + "):\\s*(?:#.*)?$");

	/**
	 * A Java source that reads the environment: directly, or through access-log's
	 * {@code RuntimeKnob} (a variable named in {@code new RuntimeKnob("NAME", ...)}).
	 */
	private static final Pattern JAVA_ENV_ACCESS = Pattern
		.compile("System\\.getenv|\\benv\\.get(?:OrDefault)?\\(|\\bnew RuntimeKnob\\(");

	private static final Pattern JAVA_LITERAL = Pattern.compile("\"(" + NAME + ")\"");

	/**
	 * {@code var="$(echo "$service" | tr 'a-z-' 'A-Z_')_SUFFIX"}: a name built per
	 * service.
	 */
	private static final Pattern SHELL_NAME_PER_SERVICE = Pattern.compile("tr 'a-z-' 'A-Z_'\\)_(" + NAME + ")\"");

	/** Provided by the shell or the system, not a setting of ours. */
	private static final Set<String> SHELL_OWN = Set.of("HOME", "PATH", "PWD", "OLDPWD", "SECONDS", "RANDOM", "IFS",
			"UID", "EUID", "PPID", "BASHPID", "BASH_SOURCE", "BASH_REMATCH", "BASH_VERSION", "FUNCNAME", "LINENO",
			"PIPESTATUS", "OPTARG", "OPTIND", "HOSTNAME", "USER", "TERM", "LANG", "TMPDIR", "EPOCHSECONDS");

	private EnvironmentReads() {
	}

	static Set<String> springPlaceholders(String text) {
		return all(SPRING_PLACEHOLDER, text);
	}

	static Set<String> compose(String text) {
		Set<String> names = all(COMPOSE_INTERPOLATION, text);
		names.addAll(all(COMPOSE_PASS_THROUGH, text));
		return names;
	}

	/**
	 * A Java file that reads the environment ({@code System.getenv}, or {@code env.get}
	 * of the map a caller took from it) reads every UPPER_SNAKE string literal it holds,
	 * plus any {@code ${NAME}} placeholder of an {@code @Value}.
	 */
	static Set<String> java(String text) {
		Set<String> names = springPlaceholders(text);
		if (JAVA_ENV_ACCESS.matcher(text).find()) {
			names.addAll(all(JAVA_LITERAL, text));
		}
		return names;
	}

	/** Suffixes of names a script builds per service, e.g. {@code JAVA_HOME}. */
	static Set<String> shellNamesPerService(String text) {
		return all(SHELL_NAME_PER_SERVICE, text);
	}

	/**
	 * Upper-case variables a bash script uses before (or without) setting them — on an
	 * earlier line, or on the line of their first assignment ({@code X=${X:-default}}):
	 * what it takes from its environment. Single-quoted text, comments and quoted
	 * here-documents expand nothing and are skipped.
	 */
	static Set<String> shell(String text) {
		Map<String, Integer> firstUse = new HashMap<>();
		Map<String, Token> firstSet = new HashMap<>();
		for (Token t : shellTokens(text)) {
			if (t.kind == Kind.USE) {
				firstUse.putIfAbsent(t.name, t.line);
			}
			else {
				firstSet.putIfAbsent(t.name, t);
			}
		}
		Set<String> read = new LinkedHashSet<>();
		firstUse.forEach((name, at) -> {
			Token set = firstSet.get(name);
			boolean before = set == null || at < set.line || (at == set.line && set.kind == Kind.ASSIGN);
			if (before && !SHELL_OWN.contains(name)) {
				read.add(name);
			}
		});
		return read;
	}

	/** A use or a setting of a name, on a line (0-based). */
	private record Token(String name, int line, Kind kind) {
	}

	/**
	 * {@code NAME=...} may use NAME's old value on its own line; {@code for},
	 * {@code read} and {@code declare} set it for what follows.
	 */
	private enum Kind {

		USE, ASSIGN, BIND

	}

	private static final Pattern ASSIGNMENT = Pattern
		.compile("(?:^|[\\s;&|(])(?:(?:export|local|readonly|declare(?: -\\w+)*) +)?(" + NAME + ")(?:\\[[^]]*])?\\+?=");

	private static final Pattern DECLARATION = Pattern.compile("\\b(?:declare|local)(?: -\\w+)+((?: +" + NAME + ")+)");

	private static final Pattern FOR_OR_READ = Pattern
		.compile("\\b(?:for|read(?: -\\w+)*) +((?:" + NAME + "|[a-z_][a-z0-9_]*)(?: +(?:" + NAME + "|[a-z_]\\w*))*)");

	private static final Pattern USE = Pattern.compile("\\$\\{?(" + NAME + ")");

	/**
	 * {@code <<EOF}, {@code <<'EOF'}, {@code <<-EOF}; not a here-string ({@code <<<}).
	 */
	private static final Pattern HEREDOC = Pattern.compile("(?<!<)<<(?!<)-?\\s*(['\"]?)(\\w+)\\1");

	private static List<Token> shellTokens(String text) {
		List<Token> tokens = new ArrayList<>();
		String[] lines = text.split("\n", -1);
		String heredocEnd = null;
		boolean heredocExpands = false;
		boolean inSingleQuote = false;
		for (int at = 0; at < lines.length; at++) {
			String line = lines[at];
			if (heredocEnd != null) {
				if (line.strip().equals(heredocEnd)) {
					heredocEnd = null;
				}
				else if (heredocExpands) {
					uses(line, at, tokens);
				}
				continue;
			}
			StringBuilder code = new StringBuilder();
			for (int i = 0; i < line.length(); i++) {
				char c = line.charAt(i);
				if (inSingleQuote) {
					inSingleQuote = c != '\'';
					code.append(' ');
				}
				else if (c == '\'' && !escaped(line, i) && !inDoubleQuote(code)) {
					inSingleQuote = true;
					code.append(' ');
				}
				else if (c == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1))) && !inDoubleQuote(code)) {
					break;
				}
				else {
					code.append(c);
				}
			}
			String live = code.toString();
			Matcher heredoc = HEREDOC.matcher(line);
			if (heredoc.find()) {
				heredocEnd = heredoc.group(2);
				heredocExpands = heredoc.group(1).isEmpty();
			}
			uses(live, at, tokens);
			assignments(live, at, tokens);
		}
		return tokens;
	}

	private static boolean escaped(String line, int i) {
		return i > 0 && line.charAt(i - 1) == '\\';
	}

	private static boolean inDoubleQuote(CharSequence code) {
		int quotes = 0;
		for (int i = 0; i < code.length(); i++) {
			if (code.charAt(i) == '"' && (i == 0 || code.charAt(i - 1) != '\\')) {
				quotes++;
			}
		}
		return quotes % 2 == 1;
	}

	private static void uses(String code, int at, List<Token> tokens) {
		Matcher m = USE.matcher(code);
		while (m.find()) {
			tokens.add(new Token(m.group(1), at, Kind.USE));
		}
	}

	private static void assignments(String code, int at, List<Token> tokens) {
		Matcher m = ASSIGNMENT.matcher(code);
		while (m.find()) {
			tokens.add(new Token(m.group(1), at, Kind.ASSIGN));
		}
		for (Pattern p : List.of(DECLARATION, FOR_OR_READ)) {
			Matcher d = p.matcher(code);
			while (d.find()) {
				for (String name : d.group(1).trim().split(" +")) {
					if (NAME.matcher(name).matches()) {
						tokens.add(new Token(name, at, Kind.BIND));
					}
				}
			}
		}
	}

	private static Set<String> all(Pattern p, String text) {
		Set<String> names = new LinkedHashSet<>();
		Matcher m = p.matcher(text);
		while (m.find()) {
			names.add(m.group(1));
		}
		return names;
	}

}
