package dev.gatewaylab.runner;

import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A throw-away lab: LAB_HOME with the test plan under every plan name, and a JDK
 * HttpServer as the target.
 */
public final class LabFixture implements AutoCloseable {

	public final Path home;

	public final HttpServer server;

	public final AtomicLong hits = new AtomicLong();

	final ByteArrayOutputStream outBytes = new ByteArrayOutputStream();

	final ByteArrayOutputStream errBytes = new ByteArrayOutputStream();

	public LabFixture(Path home) throws IOException {
		this.home = home;
		Path plans = home.resolve("jmeter/plans");
		Files.createDirectories(plans);
		try (InputStream in = LabFixture.class.getResourceAsStream("/plans/tiny.jmx")) {
			byte[] plan = in.readAllBytes();
			for (String name : new String[] { "gateway", "direct", "monolith" }) {
				Files.write(plans.resolve(name + ".jmx"), plan);
			}
		}
		server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
		server.setExecutor(Executors.newFixedThreadPool(4));
		server.createContext("/api/studies/", exchange -> {
			hits.incrementAndGet();
			byte[] body = "{\"id\":1,\"title\":\"t\"}".getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		server.start();
		System.setProperty("lab.home", home.toString());
	}

	public String url() {
		return "http://127.0.0.1:" + server.getAddress().getPort();
	}

	public int run(String... args) {
		outBytes.reset();
		errBytes.reset();
		return RunnerCommand.execute(new PrintStream(outBytes, true, StandardCharsets.UTF_8),
				new PrintStream(errBytes, true, StandardCharsets.UTF_8), args);
	}

	public String out() {
		return outBytes.toString(StandardCharsets.UTF_8);
	}

	public String err() {
		return errBytes.toString(StandardCharsets.UTF_8);
	}

	public static int freePort() throws IOException {
		try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return s.getLocalPort();
		}
	}

	@Override
	public void close() {
		server.stop(0);
		((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
		System.clearProperty("lab.home");
	}

}
