/**
 * The {@code sluice} command line (picocli): {@code Main} and one command class per subcommand, each a thin front
 * end over the table API (writes, queries, timeline and file listings, table services, health) that prints text or,
 * with {@code --json}, one JSON document ({@code Json}). {@code DemoCommand} builds the demo tables; {@code
 * ReadCostCommand} and {@code UpsertCostCommand} measure Merge-on-Read costs. Started by {@code bin/sluice}.
 */
package dev.sluice.cli;
