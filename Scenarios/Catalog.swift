import SyncSim

/// The scenario catalog: a plain list, since Swift on Linux has no runtime discovery.
///
/// Each scenario is a `static let` in an extension in this folder, with a `///` comment saying what field
/// behaviour it reproduces, and tags (`ScenarioTag`: its area, `.fieldBug`, `.slow`) that `syncsim run --tag` selects
/// by. Add a new one to `all`; the catalog is compiled into `syncsim`, so rebuild (`make run`, `make install`).
/// Engine parameter and metric names used here are the reference engine's and the world's: `historyPageSize`,
/// `requestTimeout`, `initialSeq`; metrics `loginAttempts`, `reconnects`.
public enum Catalog {
    /// Every catalog scenario, in the order `syncsim list` and `syncsim run` show them; the hand-written field
    /// sequences of sessions 15, 16, 17, 36, 37, 38 and 39 (`fieldSequences`, `fieldSequences16`, `fieldSequences17`,
    /// `fieldSequences36`, `fieldSequences37`, `fieldSequences38`, `fieldSequences39`: Scenarios/FieldSequences15.swift,
    /// 16, 17, 36, 37, 38 and 39) come last.
    public static let all: [Scenario] = [
        // Sending and the task queue
        reconnectDuringSend,
        outOfOrderResponses,
        photoOn2GLinkDrop,
        restartWithPendingTasks,
        crashMidPhotoUpload,
        delaySpikeDuringSends,
        // History and chunks
        historyGapAfterLogin,
        scrollThroughGapsToStart,
        duplicatedAndLostPushes,
        groupChat100Mixed,
        changesBeforeMessagesCached,
        // Connections and the server
        serverRestart,
        halfOpenConnection,
        seqWrapLongPending,
        wifiToEdgeHandover,
        clockSkewLastSync,
        // From public bug reports
        backgroundBeyondLoginWindow,
        messagesWhileSocketDown,
        resendWhileFirstCopyQueued,
        responseLostAfterStore,
        offlineSendsInOrder,
        weakLinkSendOrder,
        stuckSendFlushesAfterHandover,
        halfOpenSwitchThenRestart,
        loginRejectedBackoffGrows,
        pushBeforeCatchUp,
        // Reference-engine defects (issue 12, part 1)
        ownSendStaysOnScreen,
        openChatAcrossReconnect,
        readMarkKeptOffline,
        uploadSurvivesLinkDrops,
        catchUpPastLoginPage,
        catchUpEditDuringFirstLogin,
        firstCatchUpCutShort,
        echoStaysOnScreen,
        readMarksCoalesced,
        catchUpRaceOnLogin,
        // From public bug reports, second round (issue 12, part 2)
        catchUpCursorFromLivePush,
        retryAnsweredAlreadyExists,
        outboxSurvivesOfflineRestart,
        messageWaitsForAllUploads,
        retryStormOnInstantErrors,
        ownMessagesServerTime,
        serverDetectsHalfOpen,
        oneSessionPerDevice,
        staleReplyOnNewConnection,
        // Found by `syncsim explore`
        exploreScrollWhileOpening,
        exploreHandoverToOfflineMidUpload,
        exploreConnectIntoHalfOpen,
        exploreHeldSessionInitHalfOpen,
        exploreDuplicateAnswerPageLost,
        exploreReopenEndsScroll,
        exploreRelaunchKeepsRemoval,
        exploreChangesWhileAway,
        exploreRemovalOnClosedConnection,
        explorePendingEditSurvivesCrash,
        exploreScrollsAddUp,
        exploreScrollInChatOpenedEmpty,
        exploreScrollWhileSuspended,
        exploreFailedSendChecksServer,
        exploreUploadRefusedTokenRenewed,
        photoQueueOnGSMData,
        exploreHeldBackSeqsReplaceConnection,
        exploreSendWhileScrolledUp,
        explorePushBeforeFirstLoginAnswer,
        explorePushWhileAtTop,
        exploreScrollInStaleEmptyCache,
        exploreReconnectKeepsScrolledView,
        exploreLateAnswerToGivenUpSend,
        exploreGivenUpSendStoredLate,
        exploreReopenWhilePageLoads,
        exploreScrollUpThenDownOffline,
        exploreHeldLoginFollowsDevice,
        exploreNewestPageRetryPending,
        // Found by hand-written field sequences
        historyWaitsForFreeSeq,
        stalePageOnNewConnectionSmallSeqs,
        // A link profile of the scenario's own
        burstyReorderingCell,
        timedFadesCell,
        // Capture round trip (docs/roundtrip.md)
        gprsFlapThenScroll,
        // For parameter sweeps
        openAndScrollToStart,
        idleOnLossyLink,
    ] + fieldSequences + fieldSequences16 + fieldSequences17 + fieldSequences36 + [explore36908495]
        + fieldSequences37 + fieldSequences38 + fieldSequences38E + fieldSequences38EExplore + explore39
        + fieldSequences39 + [explore39303583]

    /// The scenario called `name`, or nil.
    public static func scenario(named name: String) -> Scenario? { all.first { $0.name == name } }
}
