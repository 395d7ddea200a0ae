import GPSCore
import NMEA
import Testing

@Suite struct SentenceTests {
    @Test func gga() throws {
        guard case .gga(let s) = only(sentence("GPGGA,123519.25,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,"))
        else {
            Issue.record("not decoded")
            return
        }
        #expect(s.timeOfDay == ((12 * 60 + 35) * 60 + 19) * 1000 + 250)
        #expect(abs(s.latitude! - (48 + 7.038 / 60)) < 1e-12)
        #expect(abs(s.longitude! - (11 + 31.0 / 60)) < 1e-12)
        #expect(s.quality == 1 && s.satellitesUsed == 8 && s.hdop == 0.9)
        #expect(s.altitude == 545.4 && s.geoidSeparation == 46.9)
    }

    @Test func rmcWithSouthWestAndTwoDigitYear() throws {
        guard case .rmc(let s) = only(sentence("GNRMC,225446,A,4916.45,S,12311.12,W,000.5,054.7,191194,020.3,E,A"))
        else {
            Issue.record("not decoded")
            return
        }
        #expect(s.statusValid)
        #expect(abs(s.latitude! + (49 + 16.45 / 60)) < 1e-12)
        #expect(abs(s.longitude! + (123 + 11.12 / 60)) < 1e-12)
        #expect(abs(s.speed! - 0.5 * 1852 / 3600) < 1e-12)
        #expect(s.track == 54.7)
        #expect(s.date == CivilDate(year: 1994, month: 11, day: 19))
        #expect(s.modeIndicator == UInt8(ascii: "A"))
    }

    @Test(arguments: [("010169", 1969), ("010199", 1999), ("010100", 2000), ("010168", 2068)])
    func twoDigitYears(field: String, year: Int) throws {
        guard case .rmc(let s) = only(sentence("GPRMC,000000,A,0100.00,N,00100.00,E,0,0,\(field),,")) else {
            Issue.record("not decoded")
            return
        }
        #expect(s.date?.year == year)
    }

    @Test func gllOldAndNew() throws {
        guard case .gll(let a) = only(sentence("GPGLL,4916.45,N,12311.12,W,225444,A,A")) else {
            Issue.record("new")
            return
        }
        #expect(a.timeOfDay == (22 * 3600 + 54 * 60 + 44) * 1000 && a.statusValid)
        guard case .gll(let b) = only(sentence("GPGLL,4916.45,N,12311.12,W")) else {
            Issue.record("old")
            return
        }
        #expect(b.timeOfDay == nil && b.statusValid && b.latitude != nil)
    }

    @Test func gns() throws {
        guard case .gns(let s) = only(sentence("GNGNS,014035.00,4332.69262,S,17235.48549,E,RR,13,0.9,25.63,11.24,,"))
        else {
            Issue.record("not decoded")
            return
        }
        #expect(s.valid && s.satellitesUsed == 13 && s.altitude == 25.63 && s.geoidSeparation == 11.24)
        guard case .gns(let n) = only(sentence("GNGNS,014035.00,,,,,NN,00,,,,,")) else {
            Issue.record("no fix")
            return
        }
        #expect(!n.valid)
    }

    @Test func vtgWithAndWithoutUnitLetters() throws {
        guard case .vtg(let a) = only(sentence("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A")) else {
            Issue.record("new")
            return
        }
        #expect(a.track == 54.7 && abs(a.speed! - 5.5 * 1852 / 3600) < 1e-12)
        guard case .vtg(let b) = only(sentence("GPVTG,054.7,034.4,005.5,010.2")) else {
            Issue.record("old")
            return
        }
        #expect(b.track == 54.7 && abs(b.speed! - 5.5 * 1852 / 3600) < 1e-12)
        guard case .vtg(let c) = only(sentence("GPVTG,,T,,M,,N,18.0,K,A")) else {
            Issue.record("kmh")
            return
        }
        #expect(abs(c.speed! - 5) < 1e-12)
    }

    @Test func gsaGsvGstZdaTxt() throws {
        guard case .gsa(let gsa) = only(sentence("GNGSA,A,3,01,02,03,,,,,,,,,,2.5,1.3,2.1,1")) else {
            Issue.record("gsa")
            return
        }
        #expect(
            gsa.mode == 3 && gsa.satelliteIDs == [1, 2, 3] && gsa.pdop == 2.5 && gsa.hdop == 1.3 && gsa.vdop == 2.1)
        #expect(gsa.systemID == 1)
        guard case .gsv(let gsv) = only(sentence("GLGSV,3,1,11,65,10,100,30,66,20,200,31,67,30,300,32,68,40,010,33"))
        else {
            Issue.record("gsv")
            return
        }
        #expect(gsv.total == 3 && gsv.number == 1 && gsv.satellitesInView == 11)
        guard case .gst(let gst) = only(sentence("GPGST,172814.0,0.006,0.023,0.020,273.6,0.023,0.020,0.031")) else {
            Issue.record("gst")
            return
        }
        #expect(gst.latitudeError == 0.023 && gst.longitudeError == 0.020 && gst.altitudeError == 0.031)
        guard case .zda(let zda) = only(sentence("GPZDA,201530.00,04,07,2002,00,00")) else {
            Issue.record("zda")
            return
        }
        #expect(zda.date == CivilDate(year: 2002, month: 7, day: 4))
        guard case .txt(let txt) = only(sentence("GPTXT,01,01,02,ANTSTATUS=OK")) else {
            Issue.record("txt")
            return
        }
        #expect(txt.text == "ANTSTATUS=OK" && txt.kind == 2)
    }

    @Test(arguments: ["GP", "GN", "GL", "GA", "GB", "BD", "QZ", "GI"])
    func anyTalkerDecodes(talker: String) {
        guard
            case .decoded(let s) = outcomes(sentence("\(talker)GGA,000001,0100.00,N,00100.00,E,1,05,1.0,10.0,M,,M,,"))
                .first
        else {
            Issue.record("not decoded")
            return
        }
        #expect(s.talker.description == talker)
    }

    @Test func rejections() {
        #expect(
            outcomes("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*48\r\n") == [
                .rejected(.badChecksum)
            ])
        #expect(outcomes(sentence("PGRME,15.0,M,45.0,M,25.0,M")) == [.rejected(.unsupported)])
        #expect(outcomes(sentence("SDDBT,7.7,f,2.3,M,1.3,F")) == [.rejected(.unsupported)])
        // Shell variables in a text file are not NMEA of an unknown type, whatever their length.
        #expect(outcomes(sentence("HOME/x")) == [.rejected(.badAddress)])
        #expect(outcomes(sentence("S Samples/ride.nmea")) == [.rejected(.badAddress)])
        #expect(outcomes(sentence("PUBX,00")) == [.rejected(.unsupported)])
        #expect(outcomes(sentence("GPGGA,123519,4807.038")) == [.rejected(.tooFewFields(needed: 7, got: 3))])
        #expect(
            outcomes(sentence("GPGGA,123519,4867.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")) == [
                .rejected(.badField(2))
            ])
        #expect(
            outcomes(sentence("GPGGA,123519,4807.038,X,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")) == [
                .rejected(.badField(3))
            ])
        #expect(
            outcomes(sentence("GPGGA,253519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,")) == [
                .rejected(.badField(1))
            ])
        #expect(outcomes(sentence("GPRMC,123519,A,4807.038,N,18131.000,E,0,0,010126,,")) == [.rejected(.badField(5))])
        #expect(outcomes(sentence("GPRMC,123519,A,4807.038,N,01131.000,E,0,0,320126,,")) == [.rejected(.badField(9))])
    }

    @Test func checksumPolicy() {
        // A stream with checksums: a sentence that lost its checksum is rejected.
        let withChecksums =
            sentence("GPGGA,000001,0100.00,N,00100.00,E,1,05,1.0,10.0,M,,M,,")
            + "$GPGGA,000002,0100.00,N,00100.00,E,1,05,1.0,10.0,M,,M,,\r\n"
        #expect(outcomes(withChecksums).last == .rejected(.missingChecksum))
        // A receiver that never sends checksums: held, then accepted after three.
        let bare = (1...3).map { "$GPGGA,00000\($0),0100.00,N,00100.00,E,1,05,1.0,10.0,M,,M,,\r\n" }.joined()
        let result = outcomes(bare)
        #expect(result.filter { if case .decoded = $0 { true } else { false } }.count == 3)
    }
}

/// Text with `$` lines is not NMEA; a log of proprietary sentences is.
@Suite struct FoundNMEATests {
    @Test func shellVariablesAreNotNMEA() {
        let text = "Set $TRAILBOOK_STORE or $HOME/x, run $S import.\n$XDG_DATA_HOME/trailbook\n"
        #expect(decode(Array(text.utf8)).1.foundNMEA == false)
        let proprietary = sentence("PUBX,00,081350.00") + sentence("PGRME,15.0,M,45.0,M,25.0,M")
        #expect(decode(Array(proprietary.utf8)).1.foundNMEA)
    }
}
