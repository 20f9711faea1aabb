package dev.gatewaylab.runner.bench;

import java.io.PrintStream;

import picocli.CommandLine;

/** A bench command with its options parsed and its output discarded, for option tests. */
final class ParsedBench {

	private ParsedBench() {
	}

	static BenchCommand parse(String... args) {
		BenchCommand cmd = new BenchCommand(new PrintStream(PrintStream.nullOutputStream()),
				new PrintStream(PrintStream.nullOutputStream()));
		new CommandLine(cmd).parseArgs(args);
		return cmd;
	}

}
