package dev.sluice.arch;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.sluice.api.Table;
import dev.sluice.internal.timeline.TimelineStore;
import dev.sluice.internal.write.TableWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * No package cycles among the core's internal packages: a cycle means neither side can change, be tested or be
 * moved (to another module, say) without the other. Each package under {@code dev.sluice.internal} is one slice with
 * its sub-packages ({@code timeline.avro} belongs to {@code timeline}). Only the core's main classes are read (from
 * the folder or jar that holds them): scanning the whole class path for the package took most of a minute.
 */
class PackageCyclesTest {
  @Test
  void internalPackagesHaveNoCycles() throws URISyntaxException {
    Path main = Path.of(Table.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    JavaClasses core = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPath(main);
    // a wrong location would import nothing and pass
    assertTrue(core.contain(TimelineStore.class) && core.contain(TableWriter.class), main.toString());
    slices().matching("dev.sluice.internal.(*)..").should().beFreeOfCycles().check(core);
  }
}
