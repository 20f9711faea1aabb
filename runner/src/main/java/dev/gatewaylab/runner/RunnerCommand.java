package dev.gatewaylab.runner;

import dev.gatewaylab.runner.bench.BenchCommand;
import dev.gatewaylab.runner.compare.CompareCommand;
import dev.gatewaylab.runner.engine.EngineCommand;
import dev.gatewaylab.runner.run.LabException;
import dev.gatewaylab.runner.soak.SoakCommand;
import dev.gatewaylab.runner.sweep.SweepCommand;
import java.io.PrintStream;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * {@code java -jar runner/target/runner.jar <bench|sweep|soak|compare|engine> ...};
 * invoked by ./lab.
 */
@Command(name = "lab", mixinStandardHelpOptions = true, version = "lab, the Gateway Lab runner (JMeter 5.6.3 embedded)",
		description = "Gateway Lab load runner.")
public final class RunnerCommand implements Runnable {

	@Override
	public void run() {
		new CommandLine(this).usage(System.out);
	}

	public static void main(String[] args) {
		int code;
		try {
			code = execute(System.out, System.err, args);
		}
		catch (Error e) {
			// picocli passes Errors through;
			// exit anyway (RMI threads would keep the JVM alive)
			System.err.println("error: " + e);
			e.printStackTrace();
			code = 1;
		}
		System.out.flush();
		System.exit(code);
	}

	/**
	 * Runs the CLI; 0 ok, 1 unexpected failure, 2 bad input or unusable environment (one
	 * line on stderr).
	 */
	public static int execute(PrintStream out, PrintStream err, String... args) {
		CommandLine cli = new CommandLine(new RunnerCommand());
		cli.addSubcommand("bench", new BenchCommand(out, err));
		cli.addSubcommand("sweep", new SweepCommand(out, err));
		cli.addSubcommand("soak", new SoakCommand(out));
		cli.addSubcommand("compare", new CompareCommand(out));
		cli.addSubcommand("engine", new EngineCommand(out));
		cli.setOut(new java.io.PrintWriter(out, true));
		cli.setErr(new java.io.PrintWriter(err, true));
		cli.setParameterExceptionHandler((ex, a) -> {
			err.println("error: " + ex.getMessage() + " — see '" + ex.getCommandLine().getCommandName() + " --help'");
			return 2;
		});
		cli.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
			if (ex instanceof LabException) {
				err.println("error: " + ex.getMessage());
				return 2;
			}
			if (ex instanceof InterruptedException) {
				err.println("error: interrupted");
				return 130;
			}
			err.println("error: " + ex);
			ex.printStackTrace(err);
			return 1;
		});
		return cli.execute(args);
	}

}
