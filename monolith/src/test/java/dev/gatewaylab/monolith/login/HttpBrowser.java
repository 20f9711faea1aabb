package dev.gatewaylab.monolith.login;

import java.io.IOException;
import java.net.CookieManager;
import java.net.HttpCookie;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A browser on the JDK's HTTP client: its own cookies, no redirect followed, the form's
 * CSRF token read from the page.
 */
final class HttpBrowser {

	static final Pattern CSRF_INPUT = Pattern.compile("<input type=\"hidden\" name=\"_csrf\" value=\"([^\"]+)\"");

	final CookieManager cookies = new CookieManager();

	final HttpClient http = HttpClient.newBuilder()
		.cookieHandler(this.cookies)
		.followRedirects(HttpClient.Redirect.NEVER)
		.build();

	private final int port;

	HttpBrowser(int port) {
		this.port = port;
	}

	/** {@code GET /login}, then a {@code POST /login} with the page's token. */
	HttpResponse<String> login(String username, String password) throws IOException, InterruptedException {
		String token = csrfToken(get("/login"));
		return postForm("/login", Map.of("username", username, "password", password, "_csrf", token));
	}

	HttpResponse<String> get(String path) throws IOException, InterruptedException {
		return send(HttpRequest.newBuilder(uri(path)).GET().build());
	}

	HttpResponse<String> postForm(String path, Map<String, String> fields) throws IOException, InterruptedException {
		return postForm(path, fields, "*/*");
	}

	/** A form as a client that accepts {@code accept} posts it. */
	HttpResponse<String> postForm(String path, Map<String, String> fields, String accept)
			throws IOException, InterruptedException {
		String form = new LinkedHashMap<>(fields).entrySet()
			.stream()
			.map((field) -> encode(field.getKey()) + "=" + encode(field.getValue()))
			.collect(Collectors.joining("&"));
		return send(HttpRequest.newBuilder(uri(path))
			.header("Content-Type", "application/x-www-form-urlencoded")
			.header("Accept", accept)
			.POST(HttpRequest.BodyPublishers.ofString(form))
			.build());
	}

	/** {@code POST /logout} with the home page's token. */
	HttpResponse<String> logout() throws IOException, InterruptedException {
		return postForm("/logout", Map.of("_csrf", csrfToken(get("/"))));
	}

	HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
		return this.http.send(request, HttpResponse.BodyHandlers.ofString());
	}

	/** The session id this browser holds, or null. */
	String sessionId() {
		return this.cookies.getCookieStore()
			.getCookies()
			.stream()
			.filter((cookie) -> cookie.getName().equals("JSESSIONID"))
			.map(HttpCookie::getValue)
			.findFirst()
			.orElse(null);
	}

	/** Its cookies as a {@code Cookie} header value, for a raw request. */
	String cookieHeader() {
		return this.cookies.getCookieStore()
			.getCookies()
			.stream()
			.map((cookie) -> cookie.getName() + "=" + cookie.getValue())
			.collect(Collectors.joining("; "));
	}

	URI uri(String path) {
		return URI.create("http://localhost:" + this.port + path);
	}

	static String csrfToken(HttpResponse<String> page) {
		Matcher matcher = CSRF_INPUT.matcher(page.body());
		assertThat(matcher.find()).as("page has a _csrf input").isTrue();
		return matcher.group(1);
	}

	static String location(HttpResponse<?> response) {
		return response.headers().firstValue("Location").orElse(null);
	}

	static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

}
