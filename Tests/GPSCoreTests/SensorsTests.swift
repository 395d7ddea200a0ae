import GPSCore
import Testing

/// The values a fix carries beside its position, packed in the one integer both stores keep.
@Suite struct SensorsTests {
    @Test func everyValueAndTheActivityComeBackFromThePackedInteger() {
        let all = Sensors(heartRate: 142, cadence: 88, power: 312, temperature: -4, activity: .cycling)
        #expect(Sensors(packed: all.packed) == all)
        for activity in MotionActivity.allCases {
            let alone = Sensors(activity: activity)
            #expect(Sensors(packed: alone.packed) == alone, "\(activity)")
            #expect(alone.orNil != nil)
        }
        #expect(Sensors(packed: Sensors(heartRate: 60).packed).activity == nil, "no activity unless said")
        #expect(Sensors().packed == 0 && Sensors().orNil == nil)
    }

    /// A phone's accuracy is kept with the point: whole metres, 0 included, clamped at 32766.
    @Test func theAccuracyComesBackFromThePackedInteger() {
        let all = Sensors(heartRate: 142, cadence: 88, power: 312, temperature: -4, activity: .cycling, accuracy: 65)
        #expect(Sensors(packed: all.packed) == all && all.packed > 0)
        for metres in [0, 1, 20, 32766] {
            #expect(Sensors(packed: Sensors(accuracy: metres).packed).accuracy == metres, "\(metres) m")
        }
        #expect(Sensors(packed: Sensors(accuracy: 90_000).packed).accuracy == 32766)
        #expect(Sensors(packed: Sensors(heartRate: 60).packed).accuracy == nil, "no accuracy unless said")
        #expect(Sensors(accuracy: 12).orNil != nil)
        var fix = Fix()
        fix.sensors = Sensors(accuracy: 12)
        #expect(fix.horizontalError == 12, "a stored point's accuracy is its horizontal error")
    }

    @Test func theAppsWordsNameTheActivity() {
        // Overland's (CoreMotion), Traccar Client's (the background geolocation plugin), Google's.
        let words: [String: MotionActivity] = [
            "stationary": .still, "driving": .vehicle, "cycling": .cycling, "on_foot": .walking,
            "on_bicycle": .cycling, "in_vehicle": .vehicle, "still": .still, "IN_PASSENGER_VEHICLE": .vehicle,
            "IN_TRAIN": .train, "FLYING": .plane, "WALKING": .walking, "RUNNING": .running, "IN_SUBWAY": .train,
        ]
        for (word, activity) in words { #expect(MotionActivity(word: word) == activity, "\(word)") }
        #expect(MotionActivity(word: "unknown") == nil && MotionActivity(word: "tilting") == nil)
        #expect(MotionActivity(word: "UNKNOWN_ACTIVITY_TYPE") == nil)
        // At a red light a car is driving and stationary at once: the vehicle wins.
        #expect(MotionActivity.strongest(["driving", "stationary"]) == .vehicle)
        #expect(MotionActivity.strongest(["walking", "running"]) == .running)
        #expect(MotionActivity.strongest([]) == nil && MotionActivity.strongest(["unknown"]) == nil)
    }
}
