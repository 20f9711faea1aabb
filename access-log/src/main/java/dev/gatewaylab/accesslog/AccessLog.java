package dev.gatewaylab.accesslog;

import java.net.InetSocketAddress;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The access log every gateway of the lab writes, whatever its server: one line per
 * request when it completes — {@code id= method= path= client= status= durationMs=} and,
 * with tracing on, {@code traceId=} — through SLF4J to the logger {@value #LOGGER_NAME}
 * (which the log configuration routes to its own file), and the request id it carries
 * ({@value #REQUEST_ID_HEADER}). With Log4j2 all-async loggers the line is formatted and
 * written on the disruptor's thread: the caller only enqueues the arguments.
 */
public final class AccessLog {

	/** The request id's header, to the upstream and back to the client. */
	public static final String REQUEST_ID_HEADER = "X-Request-Id";

	/** The logger the log configurations route to the access-log appender. */
	public static final String LOGGER_NAME = "dev.gatewaylab.gateway.access";

	private static final Logger logger = LoggerFactory.getLogger(LOGGER_NAME);

	/** A client's id is reused only if it is short and harmless in a log line. */
	private static final Pattern SAFE_REQUEST_ID = Pattern.compile("[A-Za-z0-9._:-]{1,128}");

	private AccessLog() {
	}

	/** Whether lines are written at all: the access logger's level allows INFO. */
	public static boolean isOn() {
		return logger.isInfoEnabled();
	}

	/**
	 * The client's id if it is safe to log, else a new random one.
	 */
	public static String requestId(@Nullable String fromClient) {
		if (fromClient != null && SAFE_REQUEST_ID.matcher(fromClient).matches()) {
			return fromClient;
		}
		// UUID.randomUUID() draws from SecureRandom, which contends under load; an id
		// needs no secrecy.
		ThreadLocalRandom random = ThreadLocalRandom.current();
		return new UUID(random.nextLong(), random.nextLong()).toString();
	}

	/** The socket peer: never a header the client can forge, and never a DNS lookup. */
	public static String clientIp(@Nullable InetSocketAddress remote) {
		if (remote == null) {
			return "-";
		}
		return (remote.getAddress() != null) ? remote.getAddress().getHostAddress() : remote.getHostString();
	}

	/**
	 * Writes one line.
	 * @param status the status the client got, or a word ({@code cancelled},
	 * {@code none})
	 * @param micros how long the request took
	 * @param traceId the request's trace, or null
	 */
	public static void log(String requestId, Object method, String path, String client, Object status, long micros,
			@Nullable String traceId) {
		// Arguments are cheap to capture (no string building here): the async logger
		// formats on its own thread.
		logger.info("id={} method={} path={} client={} status={} durationMs={}.{}{}{}{}", requestId, method, path,
				client, status, micros / 1000, (micros % 1000) / 100, (micros % 100) / 10, micros % 10,
				(traceId != null) ? " traceId=" + traceId : "");
	}

}
