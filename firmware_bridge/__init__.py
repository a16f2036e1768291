"""Reader-bridge firmware and the frame protocol it shares with the host."""
