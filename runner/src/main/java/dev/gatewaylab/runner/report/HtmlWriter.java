package dev.gatewaylab.runner.report;

import java.util.List;

/**
 * Renders a {@link Document} as one self-contained HTML page (inline CSS and SVG, no
 * scripts).
 */
public final class HtmlWriter {

	private static final String STYLE = "body{font-family:sans-serif;max-width:1000px;margin:2em auto;padding:0 1em}"
			+ "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:4px 8px;"
			+ "text-align:right}td:first-child,th:first-child{text-align:left}.warn{color:#a00}"
			+ "svg{display:block;margin:1em 0}";

	private HtmlWriter() {
	}

	public static String write(Document doc) {
		StringBuilder sb = new StringBuilder("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>")
			.append(Fmt.html(doc.title()))
			.append("</title><style>")
			.append(STYLE)
			.append("</style></head><body>")
			.append("<h1>")
			.append(Fmt.html(doc.title()))
			.append("</h1>\n");
		for (Document.Section s : doc.sections()) {
			if (s instanceof Document.Heading h) {
				sb.append("<h2>").append(Fmt.html(h.text())).append("</h2>\n");
			}
			else if (s instanceof Document.Text t) {
				sb.append("<p>").append(inline(t.text())).append("</p>\n");
			}
			else if (s instanceof Document.Table t) {
				table(sb, t.header(), t.rows());
			}
			else if (s instanceof Document.Items i) {
				sb.append("<ul>");
				i.items()
					.forEach(item -> sb.append(i.warning() ? "<li class='warn'>" : "<li>")
						.append(inline(item))
						.append("</li>"));
				sb.append("</ul>\n");
			}
			else if (s instanceof Document.Chart c) {
				sb.append(c.svg()).append('\n');
			}
		}
		return sb.append("</body></html>\n").toString();
	}

	private static void table(StringBuilder sb, List<String> header, List<List<String>> rows) {
		sb.append("<table><tr>");
		header.forEach(h -> sb.append("<th>").append(Fmt.html(h)).append("</th>"));
		sb.append("</tr>");
		for (List<String> row : rows) {
			sb.append("<tr>");
			row.forEach(c -> sb.append("<td>").append(inline(c)).append("</td>"));
			sb.append("</tr>");
		}
		sb.append("</table>\n");
	}

	/**
	 * Escapes, then turns Markdown `code` spans into {@code <code>} and **bold** into
	 * {@code <strong>}.
	 */
	static String inline(String text) {
		return Fmt.html(text)
			.replaceAll("`([^`]*)`", "<code>$1</code>")
			.replaceAll("\\*\\*(.+?)\\*\\*", "<strong>$1</strong>");
	}

}
