package dev.gatewaylab.bench;

import java.net.URI;

/**
 * One thing under load: a label, the plan that drives it and the base URL it points at.
 * {@code loggingMode}/{@code loggingBackend} are set only for the logging experiment (gateway restarted per mode).
 */
public record Target(String name, String plan, URI url, String loggingMode, String loggingBackend) {

    public Target(String name, String plan, URI url) {
        this(name, plan, url, null, null);
    }

    public String host() {
        return url.getHost();
    }

    public int port() {
        return url.getPort() > 0 ? url.getPort() : ("https".equals(url.getScheme()) ? 443 : 80);
    }

    public String protocol() {
        return url.getScheme();
    }

    public boolean local() {
        String h = host();
        return h.equals("localhost") || h.startsWith("127.") || h.equals("::1") || h.equals("[::1]");
    }

    /** The lab service whose process serves this target (for CPU/RSS sampling). */
    public String service() {
        return switch (name) {
            case "direct" -> "study-service";
            case "monolith" -> "monolith";
            case "nginx" -> "nginx";
            default -> "gateway";
        };
    }
}
