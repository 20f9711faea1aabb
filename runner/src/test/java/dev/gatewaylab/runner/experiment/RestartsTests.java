package dev.gatewaylab.runner.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import dev.gatewaylab.runner.run.LabScript;
import dev.gatewaylab.runner.run.Target;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restarts against a stand-in lab script that records each call and the variant's
 * environment.
 */
class RestartsTests {

	@TempDir
	Path tmp;

	@Test
	void everyRepetitionGetsAFreshJvmAndTargetsSharingAVariantShareItWithinOne() throws Exception {
		Restarts restarts = new Restarts(standInLab(), "gateway", List.of());
		Target base = new Target("gateway", "study-api", URI.create("http://127.0.0.1:8080"), "gateway",
				URI.create("http://127.0.0.1:9080"));
		Target a = base.variant("a", null, Map.of("MODE", "a"));
		Target aToo = base.variant("a-too", null, Map.of("MODE", "a"));
		Target b = base.variant("b", null, Map.of("MODE", "b"));

		restarts.switchTo(a, 1);
		restarts.switchTo(aToo, 1); // same variant, same repetition: no restart
		restarts.switchTo(b, 1);
		// alternating order: b again first in repetition 2 — a cold JVM all the same
		restarts.switchTo(b, 2);
		restarts.switchTo(a, 2);
		restarts.restoreDefault();

		assertThat(calls()).containsExactly("down gateway a", "up gateway a", "down gateway b", "up gateway b",
				"down gateway b", "up gateway b", "down gateway a", "up gateway a", "down gateway default",
				"up gateway default");
	}

	@Test
	void theServicesInFrontOfTheRestartedServiceAreStartedWithItUnlessTheyRun() throws Exception {
		Target direct = new Target("direct", "direct", URI.create("http://127.0.0.1:8081"), "study-service",
				URI.create("http://127.0.0.1:9081"));
		Target mvc = new Target("gateway-mvc", "gateway-mvc", URI.create("http://127.0.0.1:8085"), "gateway-mvc",
				URI.create("http://127.0.0.1:9085"));
		List<Target> targets = List.of(direct.variant("virtual-direct", null, Map.of("MODE", "virtual")),
				mvc.variant("virtual-gateway-mvc", null, Map.of("MODE", "virtual")));
		List<String> inFront = Restarts.inFront("study-service", targets);
		Restarts restarts = new Restarts(standInLab(), "study-service", inFront);

		restarts.switchTo(targets.get(0), 1);
		restarts.switchTo(targets.get(1), 1); // the same variant: they share its JVM
		restarts.restoreDefault();

		assertThat(inFront).containsExactly("gateway-mvc");
		// ./lab up starts what is not running and leaves what runs
		assertThat(calls()).containsExactly("down study-service virtual", "up study-service gateway-mvc virtual",
				"down study-service default", "up study-service gateway-mvc default");
	}

	/** A lab script that records each call (command, services, the variant's MODE). */
	private LabScript standInLab() throws IOException {
		Path script = this.tmp.resolve("lab");
		Files.writeString(script, "#!/bin/sh\ncmd=$1; shift\necho \"$cmd $* ${MODE:-default}\" >> '"
				+ this.tmp.resolve("calls.txt") + "'\n");
		Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
		return new LabScript(script, this.tmp.resolve("log.txt"));
	}

	private List<String> calls() throws IOException {
		return Files.readAllLines(this.tmp.resolve("calls.txt"));
	}

}
