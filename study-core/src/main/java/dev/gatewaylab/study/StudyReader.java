package dev.gatewaylab.study;

import java.util.List;

/**
 * The studies feature's public read API for other features of the same app (the
 * monolith's home page): a bean of this type is registered by
 * {@link StudyAutoConfiguration}. The storage and the JSON model stay package-private.
 */
public interface StudyReader {

	/** The largest page {@link #firstPage(int)} serves, as for the REST API. */
	int MAX_PAGE_SIZE = 100;

	/**
	 * The first {@code size} studies by id.
	 * @param size 1 to {@value #MAX_PAGE_SIZE}
	 * @throws IllegalArgumentException for a size outside that range
	 */
	List<StudySummary> firstPage(int size);

	/** What a list of studies shows. */
	record StudySummary(long id, String title, String category, int capacity, int memberCount) {
	}

}
