package org.ccl4j.cli;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;

import org.ccl4j.Backend;
import org.ccl4j.Capabilities;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.DeviceInfo;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code ccl4j info [--json]}: what this installation can do. */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = "Print the library version, the usable backends and the CUDA devices.")
final class InfoCommand implements Callable<Integer> {
    @Spec
    private CommandSpec command;

    @Option(names = "--json", description = "Print one JSON object instead of text (lists as arrays).")
    private boolean json;

    @Override
    public Integer call() {
        PrintWriter out = command.commandLine().getOut();
        Capabilities c = ComponentLabeler.capabilities();
        boolean loaded = c.nativeLoadError() == null;
        // auto first, then the usable ones in the enum's order
        List<String> backends = Arrays.stream(Backend.values())
                .filter(b -> b == Backend.AUTO || c.backends().contains(b)).map(CliNames::of).toList();
        if (json) {
            ObjectNode info = Json.object().put("version", Main.version())
                    .put("nativeLibraryVersion", loaded ? c.version() : null);
            backends.forEach(info.putArray("backends")::add);
            info.put("cudaCompiled", c.cudaCompiled());
            c.cudaArchitectures().forEach(info.putArray("cudaArchitectures")::add);
            info.put("cudaRuntimeVersion", c.cudaRuntimeVersion()).put("cudaDriverVersion", c.cudaDriverVersion())
                    .put("cpuThreads", cpuThreads(c));
            ArrayNode devices = info.putArray("devices");
            for (DeviceInfo d : c.devices()) {
                devices.addObject().put("index", d.index()).put("name", d.name()).put("memoryBytes", d.totalMemoryBytes())
                        .put("computeCapability", d.computeMajor() + "." + d.computeMinor())
                        .put("multiprocessors", d.multiprocessors());
            }
            info.put("nativeLibrary", c.nativeLibrary()).put("nativeLibraryOrigin", c.nativeLibraryOrigin())
                    .put("nativeLoadError", c.nativeLoadError());
            out.println(Json.write(info));
            return Main.OK;
        }
        out.println("ccl4j " + Main.version());
        out.println("library:       " + (loaded ? "version " + c.version() + ", " + c.nativeLibrary() + " ("
                + c.nativeLibraryOrigin() + ")" : "not loaded: " + c.nativeLoadError()));
        out.println("backends:      " + String.join(" ", backends));
        out.println("cpu threads:   " + cpuThreads(c)
                + (loaded ? "" : " (the JVM's processors, for the java backend)"));
        out.println("cuda:          " + (!loaded ? "unavailable without the native library" : c.cudaCompiled()
                ? "compiled for " + String.join(" ", c.cudaArchitectures()) + ", runtime " + version(c.cudaRuntimeVersion())
                        + ", driver " + (c.cudaDriverVersion() == 0 ? "not installed" : version(c.cudaDriverVersion()))
                : "not compiled into this library"));
        if (c.devices().isEmpty()) {
            out.println("devices:       none");
        }
        for (DeviceInfo d : c.devices()) {
            out.printf("device %d:      %s, %.1f GiB, compute %d.%d, %d multiprocessors%n", d.index(), d.name(),
                    d.totalMemoryBytes() / (1024.0 * 1024 * 1024), d.computeMajor(), d.computeMinor(), d.multiprocessors());
        }
        return Main.OK;
    }

    /**
     * The threads CPU labelling takes by default: the native library's, or without it the JVM's
     * processors, which the java backend takes (the library's count is 0 then).
     */
    private static int cpuThreads(Capabilities c) {
        return c.nativeLoadError() == null ? c.cpuThreads() : Runtime.getRuntime().availableProcessors();
    }

    private static String version(int v) {
        return v / 1000 + "." + (v % 1000) / 10;
    }
}
