package dev.sluice.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.sluice.api.Config;
import dev.sluice.api.Table;
import dev.sluice.internal.basefile.BaseFileWriterOptions;
import dev.sluice.internal.commit.InstantLifecycle;
import dev.sluice.internal.write.WriteSettings;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The raw {@link Config} stops at the API: {@code dev.sluice.api} turns it into the engine's typed settings records,
 * and below it only those records ({@code *Settings}, each reading its keys in one {@code from(Config)}) touch a
 * {@code Config}. An engine class taking a {@code Config} would read keys nobody checked up front, in a place nobody
 * looks for them.
 */
class ConfigStopsAtApiTest {
  @Test
  void onlySettingsRecordsReadConfig() throws URISyntaxException {
    Path main = Path.of(Table.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    JavaClasses core = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPath(main);
    // a wrong location would import nothing and pass
    assertTrue(core.contain(WriteSettings.class) && core.contain(InstantLifecycle.class), main.toString());
    noClasses().that().resideInAPackage("dev.sluice.internal..")
        .and().haveSimpleNameNotEndingWith("Settings")
        // the base file writer's options (parquet and bloom keys) are a settings record in all but name; WriteSettings
        // and the API read them with BaseFileWriterOptions.from(Config)
        .and().doNotBelongToAnyOf(BaseFileWriterOptions.class)
        .should().dependOnClassesThat().belongToAnyOf(Config.class)
        .check(core);
    // the rule sees a from(Config): without the exception it fails on BaseFileWriterOptions
    assertThrows(AssertionError.class, () -> noClasses().that().belongToAnyOf(BaseFileWriterOptions.class)
        .should().dependOnClassesThat().belongToAnyOf(Config.class).check(core));
  }
}
