package org.ccl4j.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.ccl4j.Backend;
import org.ccl4j.Capabilities;
import org.ccl4j.ComponentLabeler;
import org.ccl4j.DeviceInfo;

/** {@code ccl4j info [--json]}: what this installation can do. */
final class InfoCommand {
    private InfoCommand() {
    }

    static int run(List<String> args, PrintStream out) {
        Arguments a = new Arguments(args, Set.of(), Set.of("json"));
        if (!a.positionals().isEmpty()) {
            throw new UsageException("info takes no arguments");
        }
        Capabilities c = ComponentLabeler.capabilities();
        String backends = CliNames.of(Backend.AUTO) + " " + java.util.Arrays.stream(Backend.values())
                .filter(c.backends()::contains).filter(b -> b != Backend.AUTO).map(CliNames::of)
                .collect(Collectors.joining(" "));
        if (a.flag("json")) {
            StringBuilder devices = new StringBuilder("[");
            for (DeviceInfo d : c.devices()) {
                if (devices.length() > 1) {
                    devices.append(',');
                }
                devices.append(new Json().put("index", d.index()).put("name", d.name())
                        .put("memoryBytes", d.totalMemoryBytes())
                        .put("computeCapability", d.computeMajor() + "." + d.computeMinor())
                        .put("multiprocessors", d.multiprocessors()));
            }
            devices.append(']');
            out.println(new Json().put("version", c.version()).put("backends", backends.trim())
                    .put("cudaCompiled", c.cudaCompiled()).put("cudaArchitectures", String.join(" ", c.cudaArchitectures()))
                    .put("cudaRuntimeVersion", c.cudaRuntimeVersion()).put("cudaDriverVersion", c.cudaDriverVersion())
                    .put("cpuThreads", c.cpuThreads()).raw("devices", devices.toString())
                    .put("nativeLoadError", c.nativeLoadError()));
            return Main.OK;
        }
        out.println("ccl4j " + c.version());
        if (c.nativeLoadError() != null) {
            out.println("native library: " + c.nativeLoadError());
        }
        out.println("backends:      " + backends.trim());
        out.println("cpu threads:   " + c.cpuThreads());
        out.println("cuda:          " + (c.cudaCompiled()
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

    private static String version(int v) {
        return v / 1000 + "." + (v % 1000) / 10;
    }
}
