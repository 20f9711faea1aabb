package dev.gatewaylab.lab.run;

import java.net.URI;

/**
 * One thing under load: a label, the plan that drives it, the base URL it points at, the lab service whose process
 * serves it (for CPU/RSS and JVM metrics) and that service's management URL (null when unknown, e.g. nginx).
 * {@code loggingMode}/{@code loggingBackend} are set only for the logging experiment (gateway restarted per mode).
 */
public record Target(String name, String plan, URI url, String service, URI managementUrl, String loggingMode,
                     String loggingBackend) {

    public Target(String name, String plan, URI url, String service, URI managementUrl) {
        this(name, plan, url, service, managementUrl, null, null);
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
}
