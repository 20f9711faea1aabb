package dev.gatewaylab.runner.report;

import java.util.List;

/** Renders a {@link Document} as GitHub-flavoured Markdown. */
public final class MarkdownWriter {

	private MarkdownWriter() {
	}

	public static String write(Document doc) {
		StringBuilder sb = new StringBuilder("# ").append(doc.title()).append("\n");
		boolean chartNoted = false;
		for (Document.Section s : doc.sections()) {
			if (s instanceof Document.Heading h) {
				sb.append("\n## ").append(h.text()).append("\n");
			}
			else if (s instanceof Document.Text t) {
				sb.append('\n').append(t.text()).append('\n');
			}
			else if (s instanceof Document.Table t) {
				sb.append('\n').append(table(t.header(), t.rows()));
			}
			else if (s instanceof Document.Items i) {
				sb.append('\n');
				i.items().forEach(item -> sb.append(i.warning() ? "- ⚠ " : "- ").append(item).append('\n'));
			}
			else if (s instanceof Document.Chart && !chartNoted) {
				sb.append("\nCharts: in the HTML report.\n");
				chartNoted = true;
			}
		}
		return sb.toString();
	}

	public static String table(List<String> header, List<List<String>> rows) {
		StringBuilder sb = new StringBuilder("|");
		header.forEach(h -> sb.append(' ').append(h).append(" |"));
		sb.append("\n|");
		for (int i = 0; i < header.size(); i++) {
			sb.append(i == 0 ? "---|" : "---:|");
		}
		sb.append('\n');
		for (List<String> row : rows) {
			sb.append('|');
			row.forEach(c -> sb.append(' ').append(c).append(" |"));
			sb.append('\n');
		}
		return sb.toString();
	}

}
