package dev.gatewaylab.gateway.tracing;

import io.micrometer.observation.Observation;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Subscription;
import reactor.core.CoreSubscriber;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Operators;
import reactor.util.context.Context;

/**
 * Hands each item of a publisher on with the request's server observation (its span) in
 * scope on the emitting thread. The gateway's response write uses it: the response
 * commits on the first body item, and the gateway's latency timer stops in a commit
 * action, so the Prometheus histogram finds the trace current and keeps its id as the
 * bucket's exemplar.
 * <p>
 * Reactor's automatic context propagation
 * ({@code spring.reactor.context-propagation=auto}) would do the same by restoring
 * thread-locals around every signal of every operator of every request; its "limited"
 * mode (Boot's default) restores them only inside {@code handle} and {@code tap}
 * callbacks, which run before the item is handed on. This is the one place the gateway
 * needs the span on the thread.
 */
public final class ServerSpanScope {

	private ServerSpanScope() {
	}

	public static <T> Flux<T> around(Flux<T> items) {
		return Flux.from(Operators.<T, T>lift((scannable, actual) -> new ScopedSubscriber<>(actual)).apply(items));
	}

	public static <T> Mono<T> around(Mono<T> item) {
		return Mono.from(Operators.<T, T>lift((scannable, actual) -> new ScopedSubscriber<>(actual)).apply(item));
	}

	/** Not fuseable: a downstream that fused would poll items without onNext. */
	static final class ScopedSubscriber<T> implements CoreSubscriber<T>, Subscription {

		private final CoreSubscriber<? super T> actual;

		private final @Nullable Observation observation;

		private @Nullable Subscription upstream;

		ScopedSubscriber(CoreSubscriber<? super T> actual) {
			this.actual = actual;
			this.observation = actual.currentContext().getOrDefault(ObservationThreadLocalAccessor.KEY, null);
		}

		@Override
		public Context currentContext() {
			return this.actual.currentContext();
		}

		@Override
		public void onSubscribe(Subscription subscription) {
			this.upstream = subscription;
			this.actual.onSubscribe(this);
		}

		@Override
		public void onNext(T item) {
			if (this.observation == null) {
				this.actual.onNext(item);
				return;
			}
			try (Observation.Scope scope = this.observation.openScope()) {
				this.actual.onNext(item);
			}
		}

		@Override
		public void onError(Throwable error) {
			this.actual.onError(error);
		}

		@Override
		public void onComplete() {
			this.actual.onComplete();
		}

		@Override
		public void request(long n) {
			this.upstream.request(n);
		}

		@Override
		public void cancel() {
			this.upstream.cancel();
		}

	}

}
