package dev.gatewaylab.gateway.server;

import java.time.Duration;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.env.PropertyResolver;
import org.springframework.util.unit.DataSize;

/**
 * The server's limits on what a client sends ({@code gateway.server.*}), read once.
 *
 * @param readTimeout a request body that stops arriving for this long → 408
 * @param requestTimeout a request body that takes longer in all → 408
 * @param maxBodyBytes larger request bodies → 413
 * @param maxHeaderCount more header lines → 431: the upstreams' limit (Tomcat's
 * maxHeaderCount, 100) less the lines the gateway adds
 * @param maxHeaderBytes a longer request line and header section, counted as an upstream
 * counts them (each line with its CRLF) → 431: the upstreams' limit (Tomcat's
 * maxHttpRequestHeaderSize, 8 KB) less what the gateway adds
 * @param lingerTime after an early answer, how long what the client still sends is read
 * and discarded before the connection is closed
 * @param lingerBytes … and how much of it at most
 */
record RequestLimits(Duration readTimeout, Duration requestTimeout, long maxBodyBytes, int maxHeaderCount,
		int maxHeaderBytes, Duration lingerTime, long lingerBytes) {

	RequestLimits {
		if (maxHeaderCount < 1 || maxHeaderBytes < 1 || lingerBytes < 0 || lingerTime.isNegative()) {
			throw new IllegalArgumentException("gateway.server limits must be positive: " + maxHeaderCount
					+ " header lines (GATEWAY_MAX_HEADER_COUNT), " + maxHeaderBytes
					+ " header bytes (GATEWAY_MAX_HEADER_SIZE), linger " + lingerTime + " (GATEWAY_LINGER_TIME) and "
					+ lingerBytes + " bytes (GATEWAY_LINGER_SIZE)");
		}
	}

	/**
	 * From the environment; strings parsed here, since the management child context has
	 * no conversion service for "500ms".
	 */
	static RequestLimits of(PropertyResolver environment) {
		return new RequestLimits(duration(environment, "read-timeout", "3s"),
				duration(environment, "request-timeout", "30s"), bytes(environment, "max-body-size", "1MB"),
				Integer.parseInt(environment.getProperty("gateway.server.max-header-count", "95").strip()),
				Math.toIntExact(bytes(environment, "max-header-size", "7680B")),
				duration(environment, "linger-time", "2s"), bytes(environment, "linger-size", "4MB"));
	}

	private static Duration duration(PropertyResolver environment, String name, String fallback) {
		return DurationStyle.detectAndParse(environment.getProperty("gateway.server." + name, fallback).strip());
	}

	private static long bytes(PropertyResolver environment, String name, String fallback) {
		return DataSize.parse(environment.getProperty("gateway.server." + name, fallback).strip()).toBytes();
	}

}
