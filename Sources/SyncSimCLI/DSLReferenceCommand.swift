import SyncSim

/// `syncsim dsl-reference`: prints the scenario language's reference as Markdown (the text of docs/dsl.md).
enum DSLReferenceCommand {
    static let spec = CommandSpec(
        name: "dsl-reference",
        summary: "print the scenario language reference (Markdown, as docs/dsl.md)",
        help: """
            usage: syncsim dsl-reference

            Prints every word of the scenario DSL (topology, timeline groups, protocol events for When, actions,
            expectations, conditions, the world probe, metrics and values) with argument labels, units and one
            example each, as Markdown. docs/dsl.md is this output; a test keeps them equal.

            example: syncsim dsl-reference > docs/dsl.md
            """,
        run: { arguments, console in
            try arguments.finish()
            console.out(String(DSLReference.markdown.dropLast()))
            return ExitCode.success
        }
    )
}
