package dev.gatewaylab.runner.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A report as a list of sections, built once by the report builders ({@link BenchReport},
 * {@link SweepReport}) and rendered by {@link MarkdownWriter} and {@link HtmlWriter}: the
 * prose lives in one place for both formats.
 */
public final class Document {

	/** One block of a report. */
	public sealed interface Section permits Heading, Text, Table, Items, Chart {

	}

	public record Heading(String text) implements Section {
	}

	/**
	 * A paragraph; `code` spans are written as such in Markdown and as {@code <code>} in
	 * HTML.
	 */
	public record Text(String text) implements Section {
	}

	/** A table; the first column is left-aligned, the others right-aligned. */
	public record Table(List<String> header, List<List<String>> rows) implements Section {
	}

	/** A bullet list; {@code warning} items are marked (⚠ in Markdown, red in HTML). */
	public record Items(List<String> items, boolean warning) implements Section {
	}

	/** An inline SVG chart (HTML only; Markdown points to report.html once). */
	public record Chart(String svg) implements Section {
	}

	private final String title;

	private final List<Section> sections = new ArrayList<>();

	public Document(String title) {
		this.title = title;
	}

	public String title() {
		return title;
	}

	public List<Section> sections() {
		return sections;
	}

	public Document heading(String text) {
		sections.add(new Heading(text));
		return this;
	}

	public Document text(String text) {
		sections.add(new Text(text));
		return this;
	}

	public Document table(List<String> header, List<List<String>> rows) {
		sections.add(new Table(header, rows));
		return this;
	}

	public Document items(List<String> items) {
		sections.add(new Items(items, false));
		return this;
	}

	public Document warnings(List<String> items) {
		sections.add(new Items(items, true));
		return this;
	}

	public Document chart(String svg) {
		sections.add(new Chart(svg));
		return this;
	}

}
