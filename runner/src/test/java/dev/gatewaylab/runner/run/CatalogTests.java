package dev.gatewaylab.runner.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CatalogTests {

	private static final String TWO_TARGETS = """
			services=study-service,floor
			service.study-service.port=8081
			service.study-service.management-port=9081
			service.floor.port=8083
			service.floor.management-port=9083
			targets=direct,floor
			target.direct.service=study-service
			target.direct.needs=study-service
			target.direct.plan=direct
			target.floor.service=floor
			target.floor.needs=study-service,floor
			target.floor.plan=floor
			""";

	private static Catalog parse(String text) throws Exception {
		Properties p = new Properties();
		p.load(new StringReader(text));
		return Catalog.parse(p);
	}

	@Test
	void defaultTargetsAreTheListedOnesOrEveryTarget() throws Exception {
		assertThat(parse(TWO_TARGETS).defaultTargets()).containsExactly("direct", "floor");
		assertThat(parse(TWO_TARGETS + "default-targets=direct\n").defaultTargets()).containsExactly("direct");
		assertThatThrownBy(() -> parse(TWO_TARGETS + "default-targets=direct,gateway\n"))
			.hasMessageContaining("default-targets names unknown target 'gateway'");
	}

	@Test
	void theLabMeasuresTheFloorOnlyWhenAskedFor() {
		Catalog lab = Catalog.load(Path.of(".."));
		Path plans = Path.of("../jmeter/plans");
		assertThat(lab.targets()).containsKey("floor");

		TargetOptions none = new TargetOptions();
		new CommandLine(none).parseArgs();
		assertThat(none.resolveTargets(lab, plans)).extracting(Target::name)
			.containsExactly("gateway", "direct", "monolith");

		TargetOptions asked = new TargetOptions();
		new CommandLine(asked).parseArgs("--targets", "gateway,floor,direct");
		assertThat(asked.resolveTargets(lab, plans)).extracting(Target::name)
			.containsExactly("gateway", "floor", "direct");
	}

}
