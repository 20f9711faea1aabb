package dev.gatewaylab.servlet;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webmvc.error.DefaultErrorAttributes;
import org.springframework.boot.webmvc.error.ErrorAttributes;
import org.springframework.boot.webmvc.error.ErrorController;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.ApplicationContext;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the auto-configuration brings, and what it leaves alone: only a servlet web app
 * gets the hardening; an app's own {@code /error} controller wins; and the library pulls
 * in no database (an app such as a gateway must be able to take it alone).
 */
class ServletHardeningAutoConfigurationTests {

	private final WebApplicationContextRunner web = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ServletHardeningAutoConfiguration.class))
		.withInitializer((context) -> context.getBeanFactory()
			.setConversionService(ApplicationConversionService.getSharedInstance()))
		.withBean(ErrorAttributes.class, DefaultErrorAttributes::new);

	@Test
	void aServletAppGetsTheErrorPageTheFiltersAndTheLenientAccept() {
		this.web.run((context) -> assertThat(context).hasSingleBean(ProblemErrorController.class)
			.hasBean("bodySizeLimitFilter")
			.hasBean("pathParameterFilter")
			.hasBean("acceptLanguageFilter")
			.hasBean("lenientAcceptHeader")
			.hasBean("problemErrorReportValve")
			.hasBean("requestHeadDeadline"));
	}

	@Test
	void theSettingsTakeTheLibrarysNamesAndStillTheirFormerOnes() {
		this.web.run((context) -> assertThat(bodyLimit(context)).isEqualTo(1024 * 1024));
		this.web.withPropertyValues("servlet-hardening.max-body-size=16KB")
			.run((context) -> assertThat(bodyLimit(context)).isEqualTo(16 * 1024));
		this.web.withPropertyValues("study.max-body-size=10KB")
			.run((context) -> assertThat(bodyLimit(context)).isEqualTo(10 * 1024));
		this.web.withPropertyValues("servlet-hardening.max-body-size=16KB", "study.max-body-size=10KB")
			.run((context) -> assertThat(bodyLimit(context)).isEqualTo(16 * 1024));
	}

	@Test
	void anAppsOwnErrorControllerWins() {
		this.web.withBean(ErrorController.class, () -> new ErrorController() {
		}).run((context) -> assertThat(context).doesNotHaveBean(ProblemErrorController.class));
	}

	@Test
	void anAppThatIsNoServletAppGetsNothing() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ServletHardeningAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean("bodySizeLimitFilter")
				.doesNotHaveBean(ProblemErrorController.class));
	}

	private static long bodyLimit(ApplicationContext context) {
		return ((BodySizeLimitFilter) context.getBean("bodySizeLimitFilter", FilterRegistrationBean.class).getFilter())
			.maxBytes();
	}

	@Test
	void theLibraryBringsNoDatabase() {
		ClassLoader loader = getClass().getClassLoader();
		assertThat(ClassUtils.isPresent("org.flywaydb.core.Flyway", loader)).as("Flyway").isFalse();
		assertThat(ClassUtils.isPresent("org.springframework.jdbc.core.JdbcTemplate", loader)).as("Spring JDBC")
			.isFalse();
		assertThat(ClassUtils.isPresent("dev.gatewaylab.study.StudyAutoConfiguration", loader)).as("the study API")
			.isFalse();
	}

}
