package dev.gatewaylab.runner.remote;

import java.util.List;

/**
 * Remote engines failed: down or unusable when a plan run began ({@code atStart}), or
 * lost while it ran. The run was stopped on every engine and its results file closed; the
 * samples it holds are partial and must not be used.
 */
public final class EngineFailure extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final transient List<String> engines;

	private final boolean atStart;

	EngineFailure(List<String> engines, boolean atStart, String message) {
		super(message);
		this.engines = List.copyOf(engines);
		this.atStart = atStart;
	}

	/** The failed engines, as given to --remote. */
	public List<String> engines() {
		return engines;
	}

	public boolean atStart() {
		return atStart;
	}

}
