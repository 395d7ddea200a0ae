import GPSDevices

extension DeviceError {
    /// The failure as the command reports it: the sentence and the documented exit code.
    var commandFailure: CommandFailure {
        let code: ExitStatus
        switch kind {
        case .unavailable: code = .unavailable
        case .permission: code = .noPermission
        case .usage: code = .usage
        case .noInput: code = .noInput
        case .dataError: code = .dataError
        }
        return CommandFailure(message: description, code: code)
    }
}
