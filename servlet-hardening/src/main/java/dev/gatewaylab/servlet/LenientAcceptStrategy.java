package dev.gatewaylab.servlet;

import java.util.List;

import org.springframework.http.MediaType;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.accept.ContentNegotiationStrategy;
import org.springframework.web.accept.HeaderContentNegotiationStrategy;
import org.springframework.web.context.request.NativeWebRequest;

/**
 * The {@code Accept} header, read as "anything" when it cannot be parsed
 * ({@code a/b;q=x}) — RFC 9110 §12.5.1 lets a server disregard it. Spring's own strategy
 * throws instead, and then writes no body at all for an error answer (it cannot choose
 * the body's type): a malformed header turned every problem+json into an empty 406, 404
 * or 403. Parsing is unchanged for a well-formed header: the same delegate, no extra work
 * per request.
 */
final class LenientAcceptStrategy implements ContentNegotiationStrategy {

	private final ContentNegotiationStrategy delegate = new HeaderContentNegotiationStrategy();

	@Override
	public List<MediaType> resolveMediaTypes(NativeWebRequest request) {
		try {
			return this.delegate.resolveMediaTypes(request);
		}
		catch (HttpMediaTypeNotAcceptableException ex) {
			return MEDIA_TYPE_ALL_LIST;
		}
	}

}
