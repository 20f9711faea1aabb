package dev.gatewaylab.levers.routing;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;

/**
 * The application's {@link HttpHeadersFilter} beans, looked up at the first request (as
 * the framework's routing filters do: a header filter may depend on a bean that needs a
 * routing filter) and kept.
 */
final class HeadersFilters {

	private final ObjectProvider<List<HttpHeadersFilter>> provider;

	private volatile @Nullable List<HttpHeadersFilter> filters;

	HeadersFilters(ObjectProvider<List<HttpHeadersFilter>> provider) {
		this.provider = provider;
	}

	@Nullable List<HttpHeadersFilter> get() {
		List<HttpHeadersFilter> found = this.filters;
		if (found == null) {
			found = this.provider.getIfAvailable();
			this.filters = found;
		}
		return found;
	}

}
