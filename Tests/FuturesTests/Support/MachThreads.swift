#if canImport(Darwin)
    import Darwin

    // The Darwin counterpart of the tests' `/proc/self/task` readers (`threadsNamed`,
    // `threadStates`, `processThreadCount`). No Foundation here: scripts/check-darwin type-checks
    // this file against Apple's declarations alone.

    /// One of this process's threads as the Mach kernel reports it: its name and its run state as
    /// Linux's state letter ("R" running, "S" waiting, "D" uninterruptible, "T" stopped).
    struct MachThread {
        let name: String
        let state: String
    }

    /// This process's threads (`task_threads`), each with its `THREAD_EXTENDED_INFO`.
    func machThreads() -> [MachThread] {
        var list: thread_act_array_t?
        var count = mach_msg_type_number_t(0)
        guard task_threads(mach_task_self_, &list, &count) == KERN_SUCCESS, let list else { return [] }
        defer {
            for index in 0..<Int(count) { _ = mach_port_deallocate(mach_task_self_, list[index]) }
            let size = vm_size_t(Int(count) * MemoryLayout<thread_act_t>.stride)
            _ = vm_deallocate(mach_task_self_, vm_address_t(bitPattern: list), size)
        }
        return (0..<Int(count)).compactMap { machThread(list[$0]) }
    }

    private func machThread(_ port: thread_act_t) -> MachThread? {
        var info = thread_extended_info()
        var count = mach_msg_type_number_t(
            MemoryLayout<thread_extended_info>.size / MemoryLayout<integer_t>.size)
        let status = withUnsafeMutablePointer(to: &info) { pointer in
            pointer.withMemoryRebound(to: integer_t.self, capacity: Int(count)) {
                thread_info(port, thread_flavor_t(THREAD_EXTENDED_INFO), $0, &count)
            }
        }
        guard status == KERN_SUCCESS else { return nil }
        let name = withUnsafeBytes(of: info.pth_name) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let state =
            switch info.pth_run_state {
            case TH_STATE_RUNNING: "R"
            case TH_STATE_UNINTERRUPTIBLE: "D"
            case TH_STATE_STOPPED, TH_STATE_HALTED: "T"
            default: "S"
            }
        return MachThread(name: name, state: state)
    }
#endif
