package org.ncclharness.harness.figure;

import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One page in headless Chromium, driven over the Chrome DevTools Protocol
 * (https://chromedevtools.github.io/devtools-protocol/): the test evaluates script in the page (a click on a
 * header, the order of a column) and reads the network log, every request the page made from its navigation on.
 * The browser listens on a port of its choosing on 127.0.0.1 and names it in its profile's DevToolsActivePort.
 */
public final class ChromiumDevTools implements AutoCloseable {
    /** Only a hang takes this long: a loaded machine stretches Chromium's start many times over. */
    private static final long TIMEOUT_S = 600;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process browser;
    private final WebSocket socket;
    private final AtomicInteger ids = new AtomicInteger();
    private final Map<Integer, CompletableFuture<JsonNode>> replies = new ConcurrentHashMap<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final Map<String, String> urlsById = new ConcurrentHashMap<>();
    private final Map<String, String> blocked = new ConcurrentHashMap<>();
    private final CompletableFuture<Void> loaded = new CompletableFuture<>();

    private ChromiumDevTools(Process browser, WebSocket.Builder builder, URI target) {
        this.browser = browser;
        this.socket = builder.buildAsync(target, new Listener()).orTimeout(TIMEOUT_S, TimeUnit.SECONDS).join();
    }

    static ChromiumDevTools open(List<String> command, Path profile, Path work, Path page)
            throws IOException, InterruptedException {
        Path err = work.resolve("chromium-devtools-" + System.nanoTime() + ".err");
        Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(err.toFile()).start();
        try {
            Path active = profile.resolve("DevToolsActivePort");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
            while (!Files.isRegularFile(active) || Files.readAllLines(active).size() < 2) {
                if (!p.isAlive() || System.nanoTime() > deadline) {
                    fail("chromium gave no DevTools port: " + Files.readString(err, StandardCharsets.UTF_8));
                }
                Thread.sleep(50);
            }
            String port = Files.readAllLines(active).get(0).trim();
            HttpClient http = HttpClient.newHttpClient();
            JsonNode targets = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/json/list")).build(), HttpResponse.BodyHandlers.ofString()).body());
            URI pageTarget = null;
            for (JsonNode t : targets) {
                if (t.path("type").asText().equals("page")) {
                    pageTarget = URI.create(t.path("webSocketDebuggerUrl").asText());
                }
            }
            if (pageTarget == null) {
                fail("chromium lists no page to drive: " + targets);
            }
            ChromiumDevTools tools = new ChromiumDevTools(p, http.newWebSocketBuilder(), pageTarget);
            tools.send("Network.enable", JSON.createObjectNode());
            tools.send("Page.enable", JSON.createObjectNode());
            tools.send("Page.navigate", JSON.createObjectNode().put("url", page.toUri().toString()));
            tools.loaded.orTimeout(TIMEOUT_S, TimeUnit.SECONDS).join();
            return tools;
        } catch (RuntimeException | IOException | InterruptedException | AssertionError e) {
            p.destroyForcibly();
            throw e;
        }
    }

    /** The value of a script expression evaluated in the page (a promise is awaited), as JSON. */
    public JsonNode evaluate(String expression) {
        JsonNode result = send("Runtime.evaluate", JSON.createObjectNode().put("expression", expression)
                .put("returnByValue", true).put("awaitPromise", true));
        if (result.has("exceptionDetails")) {
            fail("the page threw evaluating " + expression + ": " + result.get("exceptionDetails"));
        }
        return result.path("result").path("value");
    }

    /**
     * Every URL the page asked for, in order, from the navigation to it on: those the browser then refused to fetch
     * too ({@link #blockedReason}).
     */
    public List<String> requests() {
        return List.copyOf(requests);
    }

    /** Why the browser refused to fetch a URL the page asked for ({@code csp}, ...), null where it did not. */
    public String blockedReason(String url) {
        return blocked.get(url);
    }

    private JsonNode send(String method, ObjectNode params) {
        int id = ids.incrementAndGet();
        CompletableFuture<JsonNode> reply = new CompletableFuture<>();
        replies.put(id, reply);
        ObjectNode message = JSON.createObjectNode().put("id", id).put("method", method);
        message.set("params", params);
        socket.sendText(message.toString(), true).orTimeout(TIMEOUT_S, TimeUnit.SECONDS).join();
        JsonNode answer = reply.orTimeout(TIMEOUT_S, TimeUnit.SECONDS).join();
        if (answer.has("error")) {
            fail(method + " failed: " + answer.get("error"));
        }
        return answer.path("result");
    }

    @Override
    public void close() throws InterruptedException {
        socket.abort();
        browser.descendants().forEach(ProcessHandle::destroyForcibly);
        browser.destroyForcibly();
        browser.waitFor(10, TimeUnit.SECONDS);
    }

    /** Joins a message's parts, then hands replies to their callers and records the events the test reads. */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                handle(text.toString());
                text.setLength(0);
            }
            ws.request(1);
            return null;
        }

        private void handle(String raw) {
            JsonNode m;
            try {
                m = JSON.readTree(raw);
            } catch (IOException e) {
                throw new IllegalStateException("DevTools sent no JSON: " + raw, e);
            }
            if (m.has("id")) {
                CompletableFuture<JsonNode> reply = replies.remove(m.get("id").asInt());
                if (reply != null) {
                    reply.complete(m);
                }
                return;
            }
            switch (m.path("method").asText()) {
                case "Network.requestWillBeSent" -> {
                    String url = m.path("params").path("request").path("url").asText();
                    urlsById.put(m.path("params").path("requestId").asText(), url);
                    requests.add(url);
                }
                case "Network.loadingFailed" -> {
                    String url = urlsById.get(m.path("params").path("requestId").asText());
                    JsonNode reason = m.path("params").path("blockedReason");
                    if (url != null && !reason.isMissingNode()) {
                        blocked.put(url, reason.asText());
                    }
                }
                case "Page.loadEventFired" -> loaded.complete(null);
                default -> { }
            }
        }
    }
}
