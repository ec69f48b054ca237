package org.edgar13f.node;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.opensearch.analysis.common.CommonAnalysisPlugin;
import org.opensearch.common.logging.LogConfigurator;
import org.opensearch.common.settings.Settings;
import org.opensearch.env.Environment;
import org.opensearch.http.HttpServerTransport;
import org.opensearch.index.mapper.MapperExtrasPlugin;
import org.opensearch.index.reindex.ReindexPlugin;
import org.opensearch.node.InternalSettingsPreparer;
import org.opensearch.node.Node;
import org.opensearch.painless.PainlessPlugin;
import org.opensearch.plugins.ExtensiblePlugin;
import org.opensearch.plugins.Plugin;
import org.opensearch.transport.Netty4Plugin;

/**
 * A single OpenSearch node with the plugins the edgar13f OpenSearch store
 * needs, taken from the classpath: Netty4 (HTTP), the common analysis
 * (the english analyzer), Painless, mapper-extras (token_count), reindex
 * (_delete_by_query) and k-NN (knn_vector, cosineSimilarity).
 *
 * <p>Usage: {@code TestNode HOME}. The node keeps its data and logs under
 * HOME, listens on loopback ports the system picks, and writes its HTTP
 * address ({@code http://127.0.0.1:PORT}) to HOME/url once it is started.
 * It stops cleanly on SIGTERM or SIGINT.
 */
public final class TestNode extends Node {
    private TestNode(Environment env, Collection<Class<? extends Plugin>> plugins) {
        super(env, plugins, true);
    }

    @SuppressWarnings("unchecked")
    private static Collection<Class<? extends Plugin>> plugins() throws ClassNotFoundException {
        List<Class<? extends Plugin>> plugins = new ArrayList<>(List.of(
            Netty4Plugin.class,
            CommonAnalysisPlugin.class,
            PainlessPlugin.class,
            MapperExtrasPlugin.class,
            ReindexPlugin.class));
        // The k-NN plugin comes unpacked from its plugin zip (target/knn):
        // nothing here compiles against it.
        plugins.add((Class<? extends Plugin>) Class.forName("org.opensearch.knn.plugin.KNNPlugin"));
        return plugins;
    }

    /**
     * Hands Painless the extensions on the classpath (k-NN's
     * cosineSimilarity and its allowlist). A plugin installed in a
     * directory gets them from the plugin service; a classpath plugin
     * does not. Painless keeps its allowlists in static fields, so
     * loading them into a throwaway instance before the node starts is
     * enough.
     */
    private static void loadPainlessExtensions() {
        new PainlessPlugin().loadExtensions(new ExtensiblePlugin.ExtensionLoader() {
            @Override
            public <T> List<T> loadExtensions(Class<T> type) {
                List<T> out = new ArrayList<>();
                ServiceLoader.load(type, TestNode.class.getClassLoader()).forEach(out::add);
                return out;
            }
        });
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("usage: TestNode HOME");
            System.exit(2);
        }
        Path home = Path.of(args[0]).toAbsolutePath();
        Path config = home.resolve("config");
        Files.createDirectories(config);
        Files.deleteIfExists(home.resolve("url"));
        Settings settings = Settings.builder()
            .put("path.home", home.toString())
            .put("path.data", home.resolve("data").toString())
            .put("path.logs", home.resolve("logs").toString())
            .put("cluster.name", "edgar13f-test")
            .put("node.name", "edgar13f-test-node")
            .put("discovery.type", "single-node")
            .put("network.host", "127.0.0.1")
            .put("http.port", "0")
            .put("transport.port", "0")
            // A shared machine's disk may be fuller than the default
            // watermarks allow; a test node must not turn read-only.
            .put("cluster.routing.allocation.disk.threshold_enabled", false)
            .build();
        // The node logs to standard output (run.sh keeps it in node.log).
        Files.writeString(config.resolve("log4j2.properties"), String.join("\n",
            "status = error",
            "appender.console.type = Console",
            "appender.console.name = console",
            "appender.console.layout.type = PatternLayout",
            "appender.console.layout.pattern = [%d{ISO8601}][%-5p][%-25c{1.}] %marker%m%n",
            "rootLogger.level = info",
            "rootLogger.appenderRef.console.ref = console",
            ""), StandardCharsets.UTF_8);
        Environment env = InternalSettingsPreparer.prepareEnvironment(settings, Map.of(), config, () -> "edgar13f-test-node");
        LogConfigurator.registerErrorListener();
        LogConfigurator.setNodeName("edgar13f-test-node");
        LogConfigurator.configure(env);
        loadPainlessExtensions();
        TestNode node = new TestNode(env, plugins());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
                node.awaitClose(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                e.printStackTrace();
            } finally {
                stopped.countDown();
            }
        }, "edgar13f-test-node-stop"));
        node.start();

        String addr = node.injector().getInstance(HttpServerTransport.class).boundAddress().publishAddress().toString();
        Path tmp = home.resolve("url.tmp");
        Files.writeString(tmp, "http://" + addr + "\n", StandardCharsets.UTF_8);
        Files.move(tmp, home.resolve("url"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        System.out.println("edgar13f test node listening on http://" + addr);
        stopped.await();
    }
}
