package org.ccl4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

class DevicesTest {
    @Test
    void devicesAreParsedAsACommandLineWritesThem() {
        assertTrue(Devices.parse("all").isAll());
        assertTrue(Devices.parse(" ALL ").isAll());
        assertEquals(List.of(0, 2), Devices.parse("0, 2").indices());
        assertEquals(List.of(1, 1, 0), Devices.parse("1,1,0").indices());
        assertEquals(Devices.of(0, 2), Devices.parse("0,2"));
        assertEquals("0,2", Devices.of(0, 2).toString());
        assertEquals("all", Devices.all().toString());
        assertFalse(Devices.of(3).isAll());
        assertEquals(List.of(), Devices.all().indices());
        IllegalArgumentException word = assertThrows(IllegalArgumentException.class, () -> Devices.parse("0,gpu1"));
        assertTrue(word.getMessage().contains("'gpu1'"), word.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Devices.parse("0,"));
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> Devices.of(0, -1));
        assertTrue(negative.getMessage().contains("-1"), negative.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Devices.of());
        assertThrows(IllegalArgumentException.class, () -> Devices.of(new int[65]));
    }

    @Test
    void aLabelerListsItsDevicesAndAMissingDeviceIsNamed() {
        int count = ComponentLabeler.capabilities().devices().size();
        try (ComponentLabeler cpu = ComponentLabeler.create(Backend.CPU_PARALLEL, Devices.of(0, 1))) {
            assertEquals(List.of(), cpu.devices(), "the CPU backends ignore the devices");
            assertEquals(-1, cpu.device());
        }
        if (count == 0) {
            System.out.println("NOTICE: no CUDA device present - a labeler of several devices is only refused");
            try (ComponentLabeler auto = ComponentLabeler.create(Backend.AUTO, Devices.of(0, 1))) {
                assertTrue(auto.backend() != Backend.CUDA && auto.devices().isEmpty(), "AUTO without a GPU: " + auto.backend());
                if (ComponentLabeler.capabilities().backends().contains(Backend.CPU_PARALLEL)) {
                    assertEquals(Backend.CPU_PARALLEL, auto.backend(), "AUTO falls back to the CPU, not the JVM");
                }
            }
            assertThrows(BackendUnavailableException.class,
                    () -> ComponentLabeler.create(Backend.CUDA, Devices.of(0, 0)).close());
            return;
        }
        try (ComponentLabeler all = ComponentLabeler.create(Backend.CUDA)) {
            assertEquals(IntStream.range(0, count).boxed().toList(), all.devices(), "CUDA uses every device by default");
        }
        try (ComponentLabeler partitions = ComponentLabeler.create(Backend.CUDA, Devices.of(0, 0, 0))) {
            assertEquals(List.of(0, 0, 0), partitions.devices());
            assertEquals(0, partitions.device());
        }
        BackendUnavailableException missing = assertThrows(BackendUnavailableException.class,
                () -> ComponentLabeler.create(Backend.CUDA, Devices.of(0, count)).close());
        assertTrue(missing.getMessage().contains("device " + count + " does not exist"), missing.getMessage());
    }
}
