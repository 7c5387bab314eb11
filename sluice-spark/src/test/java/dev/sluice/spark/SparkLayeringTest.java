package dev.sluice.spark;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** Sluice-on-Spark is a front end: it reaches the engine through dev.sluice.api and the storage plug-in only. */
class SparkLayeringTest {
  @Test
  void usesOnlyTheApiAndTheStoragePlugIn() {
    JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("dev.sluice.spark");
    noClasses().that().resideInAPackage("dev.sluice.spark..")
        .should().dependOnClassesThat().resideInAPackage("dev.sluice.internal..")
        .because("front ends use dev.sluice.api and dev.sluice.storage only")
        .check(classes);
  }
}
