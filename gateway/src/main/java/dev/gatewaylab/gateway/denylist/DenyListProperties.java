package dev.gatewaylab.gateway.denylist;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

import dev.gatewaylab.denylist.OnError;

/**
 * {@code gateway.deny-list.*} (environment: {@code GATEWAY_DENY_LIST_FILE},
 * {@code GATEWAY_DENY_LIST_ON_ERROR}, {@code GATEWAY_DENY_LIST_RELOAD_INTERVAL},
 * {@code GATEWAY_DENY_LIST_COMPILED_DIR}, mapped in application.yml).
 *
 * @param file the rule file; empty = the deny filter is not even registered
 * @param onError {@code fail} (default): a bad line stops the load; {@code skip}: bad
 * lines are skipped and counted
 * @param reloadInterval how often the file's mtime and size are polled; 0 = never reload
 * @param compiledDir where the compiled form goes; empty = beside the rule file (or the
 * JVM's temporary directory when that one is not writable)
 */
@ConfigurationProperties("gateway.deny-list")
record DenyListProperties(String file, OnError onError, Duration reloadInterval, String compiledDir) {

	DenyListProperties {
		onError = (onError != null) ? onError : OnError.FAIL;
		reloadInterval = (reloadInterval != null) ? reloadInterval : Duration.ofSeconds(2);
	}

}
