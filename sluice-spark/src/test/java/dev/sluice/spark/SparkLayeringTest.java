package dev.sluice.spark;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Sluice-on-Spark is a front end: it reaches the engine through dev.sluice.api and the storage plug-in only. */
class SparkLayeringTest {
  @Test
  void usesOnlyTheApiAndTheStoragePlugIn() throws URISyntaxException {
    // the module's own classes only: scanning Spark's class path for the package took most of a minute
    JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPath(Path.of(SluiceSpark.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
    noClasses().that().resideInAPackage("dev.sluice.spark..")
        .should().dependOnClassesThat().resideInAPackage("dev.sluice.internal..")
        .because("front ends use dev.sluice.api and dev.sluice.storage only")
        .check(classes);
  }
}
